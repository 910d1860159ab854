// Monaco's html language worker, bundled by Next from the ESM build (see ../monaco-setup.ts).
import 'monaco-editor/language/html/html.worker.js';
