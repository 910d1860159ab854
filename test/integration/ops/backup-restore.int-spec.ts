// scripts/backup.sh then scripts/restore.sh onto a FRESH database and a fresh sandbox prefix (so the
// originals are never touched): a real run's session, events and written file come back, the
// restored H serves them (login, event log, file API on the restored disk image), the state
// volume's checkpoint is there, and the team's provider key decrypts with the restored key file.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, parseEnv } from '@h/config';
import { MasterKeyService, providerKeyAad, SecretBoxService } from '@h/providers';
import { removeSandboxes, startStack, type TestStack } from '../../support/api-harness';
import { HttpClient, signedUpClient, TEST_PASSWORD } from '../../support/http-client';
import { allEvents, finishTurn, scenario, SCRIPTED_API_KEY, startRun, useScriptedRunStack, waitForRunStatus } from '../../support/run-fixtures';
import { TEST_DISK_DIR } from '../../support/test-env';
import { waitFor } from '../../support/wait-for';
import { execInSandbox } from '../files/files-fixture';
import { databaseUrl, dropDatabase, query, runScript } from './ops-fixture';

const NOTE = `backup note ${randomUUID()}\n`;
const writeNote = scenario('backup-write-note', 'write the backup note', [
  { expect: { lastMessageRole: 'user' }, toolCalls: [{ name: 'write_file', arguments: { path: 'notes/backup.md', content: NOTE } }] },
  finishTurn({ lastMessageRole: 'tool' }),
]);

const image = () => process.env.H_SANDBOX_IMAGE ?? 'h-sandbox:latest';
/** Every file under / of a Docker volume with its size, read through a throw-away container. */
const volumeListing = (volume: string) =>
  execFileSync('docker', ['run', '--rm', '--network', 'none', '--user', '0:0', '--entrypoint', 'sh', '-v', `${volume}:/v:ro`, image(), '-c', 'cd /v && find . -type f -exec stat -c "%n %s" {} + | sort']).toString();

// With a disk budget the files are an ext4 image (SANDBOX_DISK_DIR); without, a Docker volume.
describe.each<{ storage: string; env: Record<string, string>; kinds: string[] }>([
  { storage: 'a disk image', env: {}, kinds: ['image', 'volume'] },
  { storage: 'a Docker volume', env: { SANDBOX_DISK_MB: '0' }, kinds: ['volume', 'volume'] },
])('backup and restore of workspace files in $storage', ({ env, kinds }) => {
  const budget = kinds[0] === 'image';
  const ctx = useScriptedRunStack([writeNote], env);
  const tag = randomUUID().slice(0, 8);
  const restoredDb = `h_test_restored_${tag}`;
  const restoredPrefix = `h-test-rs-${tag}-`;
  const dir = mkdtempSync(join(tmpdir(), 'h-backup-'));
  let restored: TestStack | undefined;

  afterAll(async () => {
    await restored?.close();
    await removeSandboxes(restoredPrefix);
    await dropDatabase(restoredDb);
    await dropDatabase(`${restoredDb}_x`);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should reproduce sessions, events, files and decryptable secrets on a fresh database and volume set', async () => {
    const stack = ctx.stack;
    const { client, email } = await signedUpClient(stack.url, 'backup');
    const team = (await client.post('/api/v1/teams', { name: 'backup team' })).body;
    expect((await client.put(`/api/v1/teams/${team.id}/providers/deepseek`, { apiKey: SCRIPTED_API_KEY })).status).toBe(200);
    const ws = (await client.post(`/api/v1/teams/${team.id}/workspaces`, { name: 'backup-ws' })).body;
    await waitFor('workspace ready', async () => (await client.get(`/api/v1/workspaces/${ws.id}`)).body.status === 'ready');
    const world = { client, userId: '', teamId: team.id, workspaceId: ws.id };
    const { sessionId, runId } = await startRun(world, 'write the backup note', { permissionMode: 'bypass' });
    expect((await waitForRunStatus(client, runId, ['completed', 'failed', 'cancelled'])).status).toBe('completed');
    const events = await allEvents(client, sessionId);
    expect(events.some((e) => e.type === 'tool.end' && e.data.name === 'write_file')).toBe(true);
    const sandbox = (await query<{ volumeName: string }>(stack.config.env.DATABASE_URL, 'SELECT "volumeName" FROM "Sandbox" WHERE "workspaceId" = $1', [ws.id]))[0];
    const stateBefore = volumeListing(`${sandbox.volumeName}-state`);
    expect(stateBefore).not.toBe('');

    // Backup, with the stack's own settings (its worker and sandbox keep running).
    const setDir = join(dir, 'set');
    const source = {
      DATABASE_URL: stack.config.env.DATABASE_URL,
      H_MASTER_KEY: stack.config.env.H_MASTER_KEY ?? '',
      H_DATA_DIR: join(dir, 'data-source'),
      SANDBOX_NAME_PREFIX: stack.sandboxPrefix,
      SANDBOX_DISK_DIR: TEST_DISK_DIR,
      SANDBOX_IMAGE: image(),
    };
    // Host-side git state (libs/git-remote's mirrors and known hosts) goes with the set.
    mkdirSync(join(source.H_DATA_DIR, 'git', 'workspaces', ws.id), { recursive: true });
    writeFileSync(join(source.H_DATA_DIR, 'git', 'workspaces', ws.id, 'known_hosts'), 'git.example.test ssh-ed25519 AAAA\n');
    const backup = await runScript('bash', ['scripts/backup.sh', setDir], source);
    expect({ code: backup.code, stderr: backup.stderr }).toMatchObject({ code: 0 });
    expect(backup.stdout.trim().split('\n').at(-1)).toBe(setDir);
    const manifest = JSON.parse(readFileSync(join(setDir, 'manifest.json'), 'utf8'));
    expect(manifest.workspaces).toContain(ws.id);
    expect(manifest.missing).toEqual([]);
    expect(manifest.parts.filter((p: any) => p.workspaceId === ws.id).map((p: any) => p.kind).sort()).toEqual(kinds);
    // The set holds secrets: only its owner may read it.
    expect(statSync(setDir).mode & 0o777).toBe(0o700);
    for (const file of ['db.dump', 'master.key', 'manifest.json']) expect(statSync(join(setDir, file)).mode & 0o777).toBe(0o600);
    // It never writes into an existing set.
    expect((await runScript('bash', ['scripts/backup.sh', setDir], source)).code).toBe(1);

    // Restore onto a database and prefix nobody uses; the key goes to a fresh data dir as a file.
    const target = databaseUrl(restoredDb);
    const dataDir = join(dir, 'data-restored');
    const restoreArgs = ['scripts/restore.sh', setDir, '--database-url', target, '--volume-prefix', restoredPrefix, '--data-dir', dataDir, '--disk-dir', TEST_DISK_DIR];
    const restoreEnv = { SANDBOX_IMAGE: image() };
    const restore = await runScript('bash', restoreArgs, restoreEnv);
    expect({ code: restore.code, stderr: restore.stderr }).toMatchObject({ code: 0 });
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'git', 'workspaces', ws.id, 'known_hosts'), 'utf8')).toBe('git.example.test ssh-ed25519 AAAA\n');
    expect(existsSync(join(TEST_DISK_DIR, restoredPrefix, `${restoredPrefix}vol-${ws.id}.img`))).toBe(budget);
    // A damaged set, or a target whose H_MASTER_KEY is another key, is refused before anything is written.
    const damaged = join(dir, 'damaged');
    execFileSync('cp', ['-a', setDir, damaged]);
    execFileSync('sh', ['-c', `printf x | dd of=${damaged}/db.dump bs=1 seek=100 conv=notrunc status=none`]);
    const refusedDamaged = await runScript('bash', ['scripts/restore.sh', damaged, '--database-url', databaseUrl(`${restoredDb}_x`)], restoreEnv);
    expect({ code: refusedDamaged.code, checksum: refusedDamaged.stderr.includes('checksum mismatch') }).toEqual({ code: 1, checksum: true });
    const otherKey = await runScript('bash', restoreArgs, { ...restoreEnv, H_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') });
    expect({ code: otherKey.code, key: otherKey.stderr.includes('H_MASTER_KEY differs') }).toEqual({ code: 1, key: true });
    // Restoring again onto the now non-empty database is refused.
    const again = await runScript('bash', restoreArgs, restoreEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`database ${restoredDb} has`);

    // The database: the same session and the same events, the sandbox record on the new prefix.
    const eventsSql = 'SELECT seq, type, data, "runId" FROM "Event" WHERE "sessionId" = $1 ORDER BY seq';
    expect(await query(target, eventsSql, [sessionId])).toEqual(await query(stack.config.env.DATABASE_URL, eventsSql, [sessionId]));
    const restoredSandbox = (await query<any>(target, 'SELECT "volumeName", status, record FROM "Sandbox" WHERE "workspaceId" = $1', [ws.id]))[0];
    expect(restoredSandbox).toMatchObject({ volumeName: `${restoredPrefix}vol-${ws.id}`, status: 'stopped', record: { name: `${restoredPrefix}ws-${ws.id}` } });
    expect(volumeListing(`${restoredPrefix}vol-${ws.id}-state`)).toBe(stateBefore);

    // The provider key decrypts with the restored key file (H_MASTER_KEY unset: the file is used).
    const box = new SecretBoxService(new MasterKeyService(new AppConfig(parseEnv({ DATABASE_URL: target, H_DATA_DIR: dataDir }))));
    const secret = (await query<any>(target, 'SELECT ciphertext, iv, "authTag", "keyId" FROM "ProviderCredential" WHERE "teamId" = $1', [team.id]))[0];
    expect(box.open(secret, providerKeyAad(team.id, 'deepseek'))).toBe(SCRIPTED_API_KEY);

    // The restored instance serves it all: the same login, the session's log, the file from the
    // restored disk image (its container is created on the restored volumes under the new prefix).
    const restoredEnv = { ...env, DATABASE_URL: target, SANDBOX_NAME_PREFIX: restoredPrefix, H_DATA_DIR: dataDir, H_MASTER_KEY: readFileSync(join(dataDir, 'master.key'), 'utf8').trim() };
    restored = await startStack({ worker: true, env: restoredEnv });
    const user = new HttpClient(restored.url);
    expect((await user.post('/api/v1/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200);
    expect((await user.get(`/api/v1/sessions/${sessionId}`)).body).toMatchObject({ id: sessionId, workspaceId: ws.id });
    expect((await allEvents(user, sessionId)).map((e) => [e.seq, e.type])).toEqual(events.map((e) => [e.seq, e.type]));
    const file = await user.get(`/api/v1/workspaces/${ws.id}/files/text?path=${encodeURIComponent('notes/backup.md')}`);
    expect({ status: file.status, content: file.body.content }).toEqual({ status: 200, content: NOTE });
    // The original is untouched: still its own volume.
    expect((await query<any>(stack.config.env.DATABASE_URL, 'SELECT "volumeName" FROM "Sandbox" WHERE "workspaceId" = $1', [ws.id]))[0].volumeName).toBe(sandbox.volumeName);

    // Rollback: the restored instance changes the file and gets a new session, its processes stop
    // (its sandbox container keeps running, the image stays mounted, as after scripts/stop.sh), and
    // the set is restored over it with --force: the file and the sessions are the set's again.
    await execInSandbox(restoredPrefix, ws.id, 'printf changed > notes/backup.md');
    const extra = (await user.post(`/api/v1/workspaces/${ws.id}/sessions`, { permissionMode: 'approve' })).body.id as string;
    await restored.close();
    restored = undefined;
    const forced = await runScript('bash', [...restoreArgs, '--force'], restoreEnv);
    expect({ code: forced.code, stderr: forced.stderr }).toMatchObject({ code: 0 });
    expect(forced.stderr).toContain(budget ? 'is mounted: its sandbox container runs' : `Docker volume ${restoredPrefix}vol-${ws.id} exists`);
    expect(await query(target, 'SELECT id FROM "AgentSession" WHERE id = $1', [extra])).toEqual([]);
    restored = await startStack({ worker: true, env: restoredEnv });
    const back = new HttpClient(restored.url);
    expect((await back.post('/api/v1/auth/login', { email, password: TEST_PASSWORD })).status).toBe(200);
    expect((await back.get(`/api/v1/workspaces/${ws.id}/files/text?path=${encodeURIComponent('notes/backup.md')}`)).body.content).toBe(NOTE);
  });
});

describe('a backup whose database names storage that is gone', () => {
  const name = `h_test_missing_${randomUUID().slice(0, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), 'h-backup-missing-'));
  afterAll(async () => {
    await dropDatabase(name);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should write the set, list what is missing in the manifest and exit 3', async () => {
    const url = databaseUrl(name);
    expect((await runScript('node', ['scripts/migrate.mjs'], { DATABASE_URL: url })).code).toBe(0);
    const [user, team, ws] = [randomUUID(), randomUUID(), randomUUID()];
    const prefix = `h-test-gone-${randomUUID().slice(0, 8)}-`;
    await query(url, `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt") VALUES ($1, 'gone@example.test', 'G', 'x', now())`, [user]);
    await query(url, `INSERT INTO "Team" (id, name, slug, "updatedAt") VALUES ($1, 'T', $2, now())`, [team, `t-${team}`]);
    await query(url, `INSERT INTO "Workspace" (id, "teamId", "createdById", name, "updatedAt") VALUES ($1, $2, $3, 'w', now())`, [ws, team, user]);
    await query(
      url,
      `INSERT INTO "Sandbox" (id, "workspaceId", driver, "volumeName", image, status, record, "updatedAt") VALUES ($1, $2, 'docker', $3, 'img', 'stopped', $4, now())`,
      [randomUUID(), ws, `${prefix}vol-${ws}`, JSON.stringify({ driver: 'docker', workspaceId: ws, teamId: team, name: `${prefix}ws-${ws}`, volume: `${prefix}vol-${ws}`, network: 'none', createdAt: new Date().toISOString() })],
    );
    const setDir = join(dir, 'set');
    const backup = await runScript('bash', ['scripts/backup.sh', setDir], { DATABASE_URL: url, H_DATA_DIR: join(dir, 'data'), SANDBOX_NAME_PREFIX: prefix, SANDBOX_IMAGE: image() });
    expect(backup.code).toBe(3);
    expect(backup.stdout.trim()).toBe(setDir);
    const manifest = JSON.parse(readFileSync(join(setDir, 'manifest.json'), 'utf8'));
    expect(manifest.missing).toEqual([
      { workspaceId: ws, what: `volume ${prefix}vol-${ws}` },
      { workspaceId: ws, what: `volume ${prefix}vol-${ws}-state` },
    ]);
    expect(manifest.parts.map((p: any) => p.file)).toEqual(['db.dump']);
  });
});
