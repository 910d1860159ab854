import { randomUUID } from 'node:crypto';
import { AppConfig, parseEnv } from '@h/config';
import {
  AgentChangeRepository,
  AgentSessionRepository,
  AuditRepository,
  EgressLogRepository,
  EventRepository,
  LeaseLostError,
  PermissionRepository,
  PrismaService,
  RunRepository,
  TeamRepository,
  UserRepository,
  WorkspaceRepository,
  type EgressLogInput,
} from '@h/db';
import { TEST_DATABASE_URL } from '../../support/test-env';

// Repository rules that the api and worker rely on but no HTTP test can pin down exactly: a
// permission is decided once however many answers race, resumed runs get their request back,
// egress rows of deleted workspaces are dropped, audit pages neither overlap nor skip.
describe('db repositories', () => {
  let prisma: PrismaService;
  let world: { userId: string; teamId: string; workspaceId: string; sessionId: string };

  beforeAll(async () => {
    prisma = new PrismaService(new AppConfig(parseEnv({ NODE_ENV: 'test', DATABASE_URL: TEST_DATABASE_URL })));
    world = await newWorld();
  });

  afterAll(async () => {
    await prisma?.$disconnect();
  });

  async function newWorld() {
    const created = await new UserRepository(prisma).createAccount(
      { email: `repo-${randomUUID()}@example.test`, name: 'Repo', passwordHash: 'x' },
      { onlyIfFirst: false },
    );
    if (!('user' in created)) throw new Error('no account');
    const userId = created.user.id;
    const team = await new TeamRepository(prisma).createWithOwner({ name: 'Repo', slug: `repo-${randomUUID()}`, ownerId: userId });
    const workspace = await new WorkspaceRepository(prisma).create({ teamId: team.id, createdById: userId, name: 'repo' }, 100);
    const session = await new AgentSessionRepository(prisma).create({
      teamId: team.id,
      workspaceId: workspace.id,
      createdById: userId,
      title: 'repo',
      model: 'scripted:repo',
      thinking: false,
      permissionMode: 'approve',
    });
    return { userId, teamId: team.id, workspaceId: workspace.id, sessionId: session.id };
  }

  const newRun = async () =>
    (await prisma.run.create({ data: { sessionId: world.sessionId, teamId: world.teamId, userId: world.userId }, select: { id: true } })).id;

  describe(EventRepository.name, () => {
    const tool = (id: string) => ({ type: 'tool.end', data: { toolCallId: id, name: 'read_file', result: 'x', isError: false, durationMs: 1 } });

    it('should append batches committed without the WAL flush in order and gapless, and leave pooled connections durable', async () => {
      const events = new EventRepository(prisma);
      const runs = new RunRepository(prisma, events);
      const runId = await newRun();
      await prisma.run.update({ where: { id: runId }, data: { status: 'running' } });
      const claim = await runs.claim(runId);
      if (!claim) throw new Error('not claimed');
      const before = await events.lastSeq(world.sessionId);
      const fast = { runId, leaseId: claim.leaseId, durable: false };
      const batches = await Promise.all([
        events.append(world.sessionId, [tool('a'), tool('b')], fast),
        events.append(world.sessionId, [tool('c')], fast),
        events.append(world.sessionId, [tool('d')], { runId, leaseId: claim.leaseId }),
      ]);
      const seqs = batches.flat().map((e) => e.seq).sort((x, y) => x - y);
      expect(seqs).toEqual([before + 1, before + 2, before + 3, before + 4]);
      expect((await events.list(world.sessionId, { after: before })).map((e) => e.seq)).toEqual(seqs);
      // The setting was the statement's own transaction's: no connection of the pool keeps it.
      const settings = await Promise.all(Array.from({ length: 8 }, () => prisma.$queryRaw<Array<{ s: string }>>`SELECT current_setting('synchronous_commit') AS s`));
      expect(settings.map((r) => r[0].s)).toEqual(Array(8).fill('on'));
      // Still fenced by the lease.
      await runs.claim(runId); // another worker takes it over
      await expect(events.append(world.sessionId, [tool('e')], fast)).rejects.toBeInstanceOf(LeaseLostError);
    });

    it('should post a message with its title only into an untitled session, and answer null for a session that is gone', async () => {
      const runs = new RunRepository(prisma, new EventRepository(prisma));
      const sessions = new AgentSessionRepository(prisma);
      const post = (sessionId: string, title: string) =>
        runs.createWithMessage({ sessionId, teamId: world.teamId, userId: world.userId, content: title, title, maxActive: 100 });
      const untitled = await sessions.create({ teamId: world.teamId, workspaceId: world.workspaceId, createdById: world.userId, title: '', model: 'scripted:repo', thinking: false, permissionMode: 'approve' });
      expect(await post(untitled.id, 'first')).toMatchObject({ created: true, events: [{ type: 'message.user', data: { content: 'first' } }] });
      await post(untitled.id, 'second');
      expect((await sessions.findById(untitled.id))?.title).toBe('first');
      expect(await post(world.sessionId, 'renamed?')).toMatchObject({ created: true });
      expect((await sessions.findById(world.sessionId))?.title).toBe('repo');
      expect(await post(randomUUID(), 'nowhere')).toBeNull();
    });

    it('should claim a run once per worker, setting startedAt at the first claim only', async () => {
      const runs = new RunRepository(prisma, new EventRepository(prisma));
      const runId = await newRun();
      expect(await runs.claim(runId)).toBeNull(); // queued: not admitted yet
      await prisma.run.update({ where: { id: runId }, data: { status: 'running' } });
      const first = await runs.claim(runId);
      expect(first?.run).toMatchObject({ id: runId, status: 'running', attempts: 1 });
      const startedAt = first?.run.startedAt;
      expect(startedAt).toBeInstanceOf(Date);
      expect(first?.checkpointId).toBeNull();
      // The first segment took the workspace checkpoint: a resumed segment's claim says so, and a
      // second checkpoint never replaces it.
      const changes = new AgentChangeRepository(prisma);
      await changes.setRunCheckpoint(runId, 'a'.repeat(40));
      await changes.setRunCheckpoint(runId, 'b'.repeat(40));
      const second = await runs.claim(runId);
      expect(second?.leaseId).not.toBe(first?.leaseId);
      expect(second?.run).toMatchObject({ attempts: 2, startedAt });
      expect(second?.checkpointId).toBe('a'.repeat(40));
    });
  });

  describe(PermissionRepository.name, () => {
    const ask = (runId: string, toolCallId: string) => ({ sessionId: world.sessionId, runId, toolCallId, toolName: 'run_command', input: { command: 'ls' } });
    /** A request as a worker makes it: the run admitted and claimed, then asked under that lease. */
    async function asked(permissions: PermissionRepository, input: ReturnType<typeof ask>) {
      const run = await prisma.run.update({ where: { id: input.runId }, data: { status: 'running' }, select: { leaseId: true } });
      const leaseId = run.leaseId ?? (await new RunRepository(prisma, new EventRepository(prisma)).claim(input.runId))?.leaseId;
      if (!leaseId) throw new Error(`run ${input.runId} could not be claimed`);
      return (await permissions.ask(input, null, leaseId)).request;
    }

    it('should hand a resumed run the same request, pending or decided, instead of a second one', async () => {
      const permissions = new PermissionRepository(prisma, new EventRepository(prisma));
      const runId = await newRun();
      const first = await asked(permissions, ask(runId, 'call-1'));
      const again = await asked(permissions, { ...ask(runId, 'call-1'), input: { command: 'rm -rf /' } });
      expect(again.id).toBe(first.id);
      expect(again.input).toEqual({ command: 'ls' });
      await permissions.decide(first.id, { status: 'allowed', decidedById: world.userId });
      await expect(asked(permissions, ask(runId, 'call-1'))).resolves.toMatchObject({ id: first.id, status: 'allowed' });
    });

    it("should show a run's request in the log the moment it is pending, and create neither for a worker that lost the run", async () => {
      const events = new EventRepository(prisma);
      const permissions = new PermissionRepository(prisma, events);
      const runs = new RunRepository(prisma, events);
      const runId = await newRun();
      await prisma.run.update({ where: { id: runId }, data: { status: 'running' } });
      const stale = (await runs.claim(runId))?.leaseId ?? 'none';
      const current = (await runs.claim(runId))?.leaseId ?? 'none'; // another worker took the run over
      const preview = { kind: 'command', command: 'ls' };

      // The old worker's ask: no request row without its event (the bot API would say waiting_permission).
      await expect(permissions.ask(ask(runId, 'call-ask'), preview, stale)).rejects.toThrow(LeaseLostError);
      expect(await permissions.listBySession(world.sessionId, 'pending')).not.toContainEqual(expect.objectContaining({ runId }));

      const { request, appended } = await permissions.ask(ask(runId, 'call-ask'), preview, current);
      expect(request).toMatchObject({ runId, toolCallId: 'call-ask', status: 'pending' });
      expect(appended.map((e) => [e.type, e.data])).toEqual([
        ['permission.requested', { permissionId: request.id, toolCallId: 'call-ask', toolName: 'run_command', input: { command: 'ls' }, preview }],
      ]);
      const logged = await events.list(world.sessionId, { after: appended[0].seq - 1, types: ['permission.requested'], limit: 10 });
      expect(logged.map((e) => e.seq)).toEqual([appended[0].seq]);

      // Decided meanwhile: a resumed segment asking again gets the decision and announces nothing.
      await permissions.decide(request.id, { status: 'allowed', decidedById: world.userId });
      await expect(permissions.ask(ask(runId, 'call-ask'), preview, current)).resolves.toMatchObject({ request: { id: request.id, status: 'allowed' }, appended: [] });
    });

    it('should record exactly one of several decisions that race, and keep the winner’s answer', async () => {
      const permissions = new PermissionRepository(prisma, new EventRepository(prisma));
      const request = await asked(permissions, ask(await newRun(), 'call-race'));
      const answers = ['allowed', 'denied', 'allowed', 'denied', 'cancelled'] as const;
      const won = await Promise.all(answers.map((status, i) => permissions.decide(request.id, { status, decidedById: world.userId, message: `answer ${i}` })));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = won.indexOf(true);
      const stored = await permissions.findById(request.id);
      expect(stored).toMatchObject({ status: answers[winner], decision: { message: `answer ${winner}` }, decidedById: world.userId });
      expect(stored?.decidedAt).toBeInstanceOf(Date);
    });

    it("should cancel only a run's pending requests, leaving decided ones and other runs alone", async () => {
      const permissions = new PermissionRepository(prisma, new EventRepository(prisma));
      const runId = await newRun();
      const otherRun = await newRun();
      const decided = await asked(permissions, ask(runId, 'a'));
      await permissions.decide(decided.id, { status: 'denied', decidedById: world.userId, message: 'no' });
      const pending = await asked(permissions, ask(runId, 'b'));
      const elsewhere = await asked(permissions, ask(otherRun, 'a'));
      await permissions.cancelPendingForRun(runId);
      await expect(permissions.findById(decided.id)).resolves.toMatchObject({ status: 'denied', decision: { message: 'no' } });
      await expect(permissions.findById(pending.id)).resolves.toMatchObject({ status: 'cancelled' });
      await expect(permissions.findById(elsewhere.id)).resolves.toMatchObject({ status: 'pending' });
      expect(await permissions.decide(pending.id, { status: 'allowed', decidedById: world.userId })).toBe(false);
    });
  });

  describe(EgressLogRepository.name, () => {
    const row = (workspaceId: string, host: string, over: Partial<EgressLogInput> = {}): EgressLogInput => ({
      workspaceId, kind: 'connect', host, port: 443, allowed: true, reason: null, bytesIn: 1, bytesOut: 2, durationMs: 3, ...over,
    });

    it('should keep the rows of live workspaces and drop those of workspaces deleted meanwhile', async () => {
      const egress = new EgressLogRepository(prisma);
      const gone = await new WorkspaceRepository(prisma).create({ teamId: world.teamId, createdById: world.userId, name: 'gone' }, 100);
      await new WorkspaceRepository(prisma).remove(gone.id);
      await egress.insertMany([
        row(world.workspaceId, 'kept.example', { bytesIn: 5_000_000_000, durationMs: 10 ** 12 }),
        row(gone.id, 'dropped.example'),
      ]);
      const recent = await egress.listRecent(world.workspaceId, 10);
      expect(recent.find((r) => r.host === 'kept.example')).toMatchObject({ bytesIn: 5_000_000_000, durationMs: 2_147_483_647, address: null });
      await expect(egress.listRecent(gone.id, 10)).resolves.toEqual([]);
    });

    it('should list the newest first and prune only rows older than the cut', async () => {
      const egress = new EgressLogRepository(prisma);
      const { workspaceId } = await newWorld();
      await egress.insertMany([row(workspaceId, 'old.example')]);
      await prisma.egressLog.updateMany({ where: { workspaceId }, data: { createdAt: new Date('2000-01-01T00:00:00Z') } });
      await egress.insertMany([row(workspaceId, 'new-1.example')]);
      await egress.insertMany([row(workspaceId, 'new-2.example')]);
      expect((await egress.listRecent(workspaceId, 2)).map((r) => r.host)).toEqual(['new-2.example', 'new-1.example']);
      expect(await egress.pruneBefore(new Date('2001-01-01T00:00:00Z'))).toBeGreaterThanOrEqual(1);
      expect((await egress.listRecent(workspaceId, 10)).map((r) => r.host)).toEqual(['new-2.example', 'new-1.example']);
    });
  });

  describe(AuditRepository.name, () => {
    it("should page a team's entries newest first, without overlap or gaps, and show no other team's", async () => {
      const audit = new AuditRepository(prisma);
      const mine = await newWorld();
      const theirs = await newWorld();
      for (let i = 0; i < 7; i++) {
        await audit.record({ action: `test.${i}`, teamId: mine.teamId, actorUserId: mine.userId });
        await audit.record({ action: `other.${i}`, teamId: theirs.teamId });
      }
      const seen: string[] = [];
      let before: bigint | undefined;
      for (;;) {
        const page = await audit.listForTeam(mine.teamId, { limit: 3, before });
        if (!page.length) break;
        seen.push(...page.map((e) => e.action));
        before = BigInt(page[page.length - 1].id);
      }
      expect(seen).toEqual(['test.6', 'test.5', 'test.4', 'test.3', 'test.2', 'test.1', 'test.0']);
    });
  });
});
