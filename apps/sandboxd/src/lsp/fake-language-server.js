#!/usr/bin/env node
// A stand-in language server for lsp.service.spec.ts (stdio LSP through vscode-jsonrpc): every line
// with "ERR" is an error, "WARN" a warning, "INFO" an information (dropped by the pipeline); a
// document containing "CRASH" makes it exit with status 1, as a crashing server would.
const rpc = require('vscode-jsonrpc/node');

const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));
const check = (uri, version, text) => {
  if (text.includes('CRASH')) process.exit(1);
  const diagnostics = [];
  text.split('\n').forEach((line, i) => {
    for (const [word, severity] of [['ERR', 1], ['WARN', 2], ['INFO', 3]]) {
      const at = line.indexOf(word);
      if (at >= 0) diagnostics.push({ range: { start: { line: i, character: at }, end: { line: i, character: at + word.length } }, severity, message: `${word} here` });
    }
  });
  void conn.sendNotification('textDocument/publishDiagnostics', { uri, version, diagnostics });
};
conn.onRequest('initialize', () => ({ capabilities: { textDocumentSync: 1 } }));
conn.onRequest('shutdown', () => null);
conn.onNotification('exit', () => process.exit(0));
conn.onNotification('textDocument/didOpen', (p) => check(p.textDocument.uri, p.textDocument.version, p.textDocument.text));
conn.onNotification('textDocument/didChange', (p) => check(p.textDocument.uri, p.textDocument.version, p.contentChanges[0].text));
conn.onNotification('textDocument/didClose', (p) => void conn.sendNotification('textDocument/publishDiagnostics', { uri: p.textDocument.uri, diagnostics: [] }));
conn.onRequest('textDocument/hover', () => ({ contents: { kind: 'markdown', value: '**fake**' } }));
conn.listen();
