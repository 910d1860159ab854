// Monaco's base worker (diff computation, links, word suggestions), bundled by Next from the ESM
// build and started by `MonacoEnvironment.getWorker` in ../monaco-setup.ts.
import 'monaco-editor/editor/editor.worker.js';
