// A tiny login web app for the browser e2e, served inside the workspace's sandbox with plain node
// (no packages): GET / is a login form at fixed CSS positions (so a test can click by viewport
// coordinates), POST /login records who signed in to login-app/logins.log and redirects to a
// welcome page. What the page really did is read back from that file.
export const LOGIN_PORT = 4173;
export const LOGIN_URL = `http://localhost:${LOGIN_PORT}/`;

/** Centres of the form's fields in viewport CSS px (the page has no scrolling and no margins). */
export const LOGIN_POINTS = {
  email: { x: 250, y: 120 },
  password: { x: 250, y: 180 },
  signIn: { x: 170, y: 240 },
} as const;

const server = String.raw`
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const log = path.join(__dirname, 'logins.log');
const page = (title, body) => '<!doctype html><html><head><meta charset="utf-8"><title>' + title + '</title><style>' +
  'body{margin:0;font:16px sans-serif;overflow:hidden}' +
  '#email,#password{position:absolute;left:100px;width:300px;height:40px;box-sizing:border-box}' +
  '#email{top:100px}#password{top:160px}' +
  '#signin{position:absolute;left:100px;top:220px;width:140px;height:40px}' +
  'h1{position:absolute;left:100px;top:20px;margin:0;font-size:24px}' +
  '</style></head><body>' + body + '</body></html>';
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (req.method === 'POST' && url.pathname === '/login') {
    let body = '';
    req.on('data', (c) => { body += c; if (body.length > 10000) req.destroy(); });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const ok = form.get('email') === 'alice@example.com' && form.get('password') === 'hunter2';
      fs.appendFileSync(log, (ok ? 'ok ' : 'refused ') + form.get('email') + '\n');
      res.writeHead(303, { location: ok ? '/welcome?user=' + encodeURIComponent(form.get('email')) : '/?error=1' });
      res.end();
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  if (url.pathname === '/welcome') return res.end(page('Welcome', '<h1 id="welcome">Welcome, ' + esc(url.searchParams.get('user')) + '</h1>'));
  res.end(page('Login fixture', '<h1>Sign in</h1><form method="post" action="/login">' +
    '<input id="email" name="email" aria-label="Email" placeholder="Email">' +
    '<input id="password" name="password" type="password" aria-label="Password" placeholder="Password">' +
    '<button id="signin" type="submit">Sign In</button></form>' + (url.searchParams.get('error') ? '<p>Wrong email or password</p>' : '')));
}).listen(${LOGIN_PORT}, () => console.log('login fixture listening on ${LOGIN_URL}'));
`;

export const LOGIN_FIXTURE_FILES: Record<string, string> = { 'login-app/server.js': server };
