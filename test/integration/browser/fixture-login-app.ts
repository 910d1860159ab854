// A tiny login web app for the browser tests, run with the image's Node inside the sandbox (so the
// sandbox's Chromium reaches it on its own loopback, as it would a dev server the agent started).
// It records every login POST in /workspace/logins.jsonl: tests assert on what the page really did.
export const FIXTURE_PORT = 4780;

export const FIXTURE_APP_SOURCE = String.raw`
const http = require('http');
const fs = require('fs');
const page = (title, body) => '<!doctype html><html><head><title>' + title + '</title><style>body{font:16px sans-serif;margin:40px}input,button,select{font-size:18px;display:block;margin:12px 0;padding:6px;width:280px}</style></head><body>' + body + '</body></html>';
const login = page('Fixture Login', '<h1>Sign in</h1><form method="post" action="/login">'
  + '<input name="user" placeholder="Username" autocomplete="off">'
  + '<input name="password" type="password" placeholder="Password" autocomplete="off">'
  + '<button type="submit">Sign In</button></form>'
  + '<select id="plan"><option value="free">Free</option><option value="pro">Pro plan</option></select>'
  + '<button id="confirm" type="button" onclick="document.title = confirm(\'Delete it?\') ? \'confirmed\' : \'cancelled\'">Ask</button>'
  + '<img src="/missing.png" alt="">'
  + '<script>console.log("fixture ready"); console.error("fixture warning")</script>');
http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/login') {
    let body = '';
    req.on('data', (c) => { body += c; if (body.length > 10000) req.destroy(); });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      fs.appendFileSync('/workspace/logins.jsonl', JSON.stringify(form) + '\n');
      const ok = form.user === 'alice' && form.password === 's3cret';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'text/html' });
      res.end(ok ? page('Dashboard', '<h1 id="welcome">Welcome, alice</h1>') : page('Login failed', '<h1>Wrong username or password</h1>'));
    });
    return;
  }
  if (req.url === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(login); return; }
  res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found');
}).listen(${FIXTURE_PORT}, '127.0.0.1', () => console.log('fixture listening'));
`;

export const FIXTURE_URL = `http://127.0.0.1:${FIXTURE_PORT}/`;
