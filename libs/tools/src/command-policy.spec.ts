import { longRunningReason } from './command-policy';

// Both kinds in one table: commands that finish must run, servers and background jobs must not.
const RUNS: string[] = [
  'curl "http://127.0.0.1:8080/api?a=1&b=2"',
  "sed 's/x/&y/' file.txt",
  'git log --grep serve',
  'node index.js --help',
  'node index.js',
  'node server.js --help',
  'npm test',
  'npm run build',
  'npm install -w packages/app',
  'jest -w 2',
  'vite build',
  'npx vite build',
  'python -m pytest -q',
  'python3 -c "print(1)"',
  'python script.py < input.txt',
  'echo "select 1" | psql',
  'npm test 2>&1 | tail -n 20',
  'make >build.log 2>&1',
  'ls &>/dev/null && echo ok',
  'grep -rn "npm run dev" README.md',
  'echo "a & b"',
  'git commit -m "serve & watch"',
  'docker build -f Dockerfile .',
  'top -b -n 1',
  'timeout 5 sleep 1',
  'cat app.log | less',
  'FOO=1 npm run lint',
  'echo done # then npm start &',
];

const REFUSED: Array<[command: string, reason: RegExp]> = [
  ['npm run dev', /dev server/],
  ['npm start', /dev server/],
  ['yarn dev', /dev server/],
  ['pnpm run start:prod', /dev server/],
  ['python -m http.server 8000', /Python server/],
  ['node server.js &', /background \(&\)/],
  ['sleep 5 &', /background \(&\)/],
  ['nohup ./worker.sh', /background \(nohup\)/],
  ['vite', /dev server/],
  ['npx vite --port 3000', /dev server/],
  ['next dev', /dev server/],
  ['npx next start', /dev server/],
  ['flask run', /Python server/],
  ['uvicorn app:app --reload', /Python server/],
  ['python -m uvicorn app:app', /Python server/],
  ['python manage.py runserver', /Python server/],
  ['python app.py', /Python server/],
  ['node dist/server.js', /Node server/],
  ['jest --watchAll', /watch mode/],
  ['tsc -w', /watch mode/],
  ['tail -f app.log', /follows output/],
  ['docker compose logs -f api', /follows output/],
  ['cd web && npm run dev', /dev server/],
  ['FOO=1 sudo -E npm run dev', /dev server/],
  ['sh -c "npm run dev"', /dev server/],
  ['npm install\nnpm run dev', /dev server/],
  ['go run .', /long-running/],
  ['vim notes.txt', /interactive/],
  ['python', /interactive/],
];

describe(longRunningReason.name, () => {
  it.each(RUNS)('should let `%s` run', (command) => {
    expect(longRunningReason(command)).toBeNull();
  });

  it.each(REFUSED)('should refuse `%s`', (command, reason) => {
    expect(longRunningReason(command)).toMatch(reason);
  });
});
