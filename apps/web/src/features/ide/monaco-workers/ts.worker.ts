// Monaco's ts language worker, bundled by Next from the ESM build (see ../monaco-setup.ts).
import 'monaco-editor/language/typescript/ts.worker.js';
