// Monaco's css language worker, bundled by Next from the ESM build (see ../monaco-setup.ts).
import 'monaco-editor/language/css/css.worker.js';
