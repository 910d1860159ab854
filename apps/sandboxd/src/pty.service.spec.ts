import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PTY_HIGH_WATER_BYTES, type RpcPeer } from '@h/sandbox-protocol';
import { PathResolver } from './path-resolver';
import { PtyService } from './pty.service';

/** A viewer that records what the daemon tells it and never acknowledges output (a slow client). */
function viewer() {
  let output = '';
  let exited: (v: { exitCode: number }) => void = () => undefined;
  const exit = new Promise<{ exitCode: number }>((resolve) => (exited = resolve));
  const peer = {
    notify(method: string, params: { data?: string; exitCode?: number }) {
      if (method === 'pty.output') output += params.data ?? '';
      if (method === 'pty.exit') exited({ exitCode: params.exitCode ?? -1 });
    },
  } as unknown as RpcPeer;
  return { peer, exit, output: () => output };
}

describe(PtyService.name, () => {
  let root: string;
  let ptys: PtyService;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'h-pty-'));
    ptys = new PtyService(new PathResolver(root));
  });
  afterAll(() => {
    ptys.closeAll();
    rmSync(root, { recursive: true, force: true });
  });

  it('should deliver the last lines of a shell that exits while its viewer is behind', async () => {
    const v = viewer();
    // More than the high-water mark, so flow control pauses the terminal for this viewer; the
    // last line comes after the pause and the shell exits at once.
    const script = `head -c ${PTY_HIGH_WATER_BYTES + 4096} /dev/zero | tr '\\0' x; sleep 0.3; echo; echo last-$((3+4)); exit 3`;
    await ptys.open({ cwd: '.', command: '/bin/bash', args: ['-c', script] }, v.peer);
    const { exitCode } = await v.exit;
    expect(exitCode).toBe(3);
    // The tail only: a failure prints what the viewer saw last, not half a megabyte of x.
    expect(v.output().slice(-64)).toContain('last-7');
    expect(v.output().split('x').length - 1).toBe(PTY_HIGH_WATER_BYTES + 4096);
  });

  it('should report the exit of a shell whose background child still holds the terminal', async () => {
    const v = viewer();
    await ptys.open({ cwd: '.', command: '/bin/bash', args: ['-c', 'sleep 30 & echo started-$((1+1)); exit 0'] }, v.peer);
    expect(await v.exit).toEqual({ exitCode: 0 });
    expect(v.output()).toContain('started-2');
    expect(ptys.count).toBe(0);
  });
});
