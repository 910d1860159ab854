// Monaco's json language worker, bundled by Next from the ESM build (see ../monaco-setup.ts).
import 'monaco-editor/language/json/json.worker.js';
