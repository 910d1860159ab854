import { randomUUID } from 'node:crypto';
import type { ModelPreset, ModelPresetList } from '@h/contracts';
import { MODEL_PRESETS_PER_TEAM } from '@h/contracts';
import { startStack, TestStack } from '../../support/api-harness';
import { createTeam, errorCode, TeamFixture, teamWithRoles } from './team-fixture';

// Issue 10, point 10: a team's model presets. Everyone in the team reads them (and picks one for
// a new session), owners and admins change them, the model comes from the catalog, other teams
// never see them.
describe('model presets', () => {
  let stack: TestStack;
  let f: TeamFixture;
  const presets = (teamId = f.teamId) => `/api/v1/teams/${teamId}/model-presets`;

  beforeAll(async () => {
    // An operator's extra model is part of the catalog presets are checked against.
    const catalog = [{ id: 'example-coder', contextWindow: 64000, price: { cacheHit: 0, cacheMiss: 0.1, output: 0.2 } }];
    stack = await startStack({ env: { MODEL_CATALOG: JSON.stringify(catalog) } });
    f = await teamWithRoles(stack.url, 'presets');
  });

  afterAll(async () => {
    await stack?.close();
  });

  it('should let an admin create, rename and delete a preset that every member reads, with the catalog', async () => {
    const created = await f.admin.client.post(presets(), { name: '  Careful review ', model: 'deepseek-v4-pro', thinking: true });
    expect(created.status).toBe(201);
    const preset = created.body as ModelPreset;
    expect(preset).toMatchObject({ teamId: f.teamId, name: 'Careful review', model: 'deepseek-v4-pro', thinking: true, createdById: f.admin.userId });

    for (const p of [f.viewer, f.member, f.owner]) {
      const list = await p.client.get(presets());
      expect(list.status).toBe(200);
      const body = list.body as ModelPresetList;
      expect(body.items.map((i) => i.id)).toContain(preset.id);
      expect(body.models.map((m) => m.id)).toEqual(expect.arrayContaining(['deepseek-v4-flash', 'deepseek-v4-pro', 'example-coder']));
      expect(body.models.find((m) => m.id === 'deepseek-chat')?.thinking).toBe('never');
    }

    const renamed = await f.owner.client.patch(`${presets()}/${preset.id}`, { name: 'Careful', thinking: false, model: 'example-coder' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: preset.id, name: 'Careful', thinking: false, model: 'example-coder' });

    expect((await f.admin.client.delete(`${presets()}/${preset.id}`)).status).toBe(204);
    expect(((await f.member.client.get(presets())).body as ModelPresetList).items.map((i) => i.id)).not.toContain(preset.id);
    expect(errorCode(await f.admin.client.delete(`${presets()}/${preset.id}`))).toBe('NOT_FOUND');
  });

  it('should refuse members and viewers any change with 403', async () => {
    const made = await f.owner.client.post(presets(), { name: `kept ${randomUUID()}`, model: 'deepseek-v4-flash' });
    expect(made.status).toBe(201);
    for (const p of [f.member, f.viewer]) {
      const create = await p.client.post(presets(), { name: `mine ${randomUUID()}`, model: 'deepseek-v4-flash' });
      expect([create.status, errorCode(create)]).toEqual([403, 'FORBIDDEN']);
      const patch = await p.client.patch(`${presets()}/${made.body.id}`, { thinking: true });
      expect([patch.status, errorCode(patch)]).toEqual([403, 'FORBIDDEN']);
      const del = await p.client.delete(`${presets()}/${made.body.id}`);
      expect([del.status, errorCode(del)]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await f.viewer.client.get(presets())).body.items.find((i: ModelPreset) => i.id === made.body.id)).toMatchObject({ thinking: false });
  });

  it('should refuse a model outside the catalog naming the known ones, and a taken name with 409', async () => {
    const unknown = await f.admin.client.post(presets(), { name: 'Mystery', model: 'gpt-imaginary' });
    expect([unknown.status, errorCode(unknown)]).toEqual([400, 'UNKNOWN_MODEL']);
    expect(unknown.body.error.message).toContain('deepseek-v4-flash');
    expect(unknown.body.error.message).toContain('example-coder');

    const name = `Twice ${randomUUID()}`;
    expect((await f.admin.client.post(presets(), { name, model: 'deepseek-v4-flash' })).status).toBe(201);
    const again = await f.admin.client.post(presets(), { name, model: 'deepseek-v4-pro' });
    expect([again.status, errorCode(again)]).toEqual([409, 'CONFLICT']);
    expect(again.body.error.message).toContain(name);

    const other = await f.admin.client.post(presets(), { name: `Other ${randomUUID()}`, model: 'deepseek-v4-flash' });
    const patchUnknown = await f.admin.client.patch(`${presets()}/${other.body.id}`, { model: 'nope' });
    expect([patchUnknown.status, errorCode(patchUnknown)]).toEqual([400, 'UNKNOWN_MODEL']);
    const patchTaken = await f.admin.client.patch(`${presets()}/${other.body.id}`, { name });
    expect([patchTaken.status, errorCode(patchTaken)]).toEqual([409, 'CONFLICT']);

    for (const bad of [{ name: '', model: 'deepseek-v4-flash' }, { name: '   ', model: 'deepseek-v4-flash' }, { name: 'x'.repeat(61), model: 'deepseek-v4-flash' }, { name: 'ok' }, { name: 'ok', model: 'deepseek-v4-flash', thinking: 'yes' }]) {
      const res = await f.admin.client.post(presets(), bad);
      expect([res.status, errorCode(res)]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it('should keep teams apart: another team\'s presets are 404 and never listed', async () => {
    const mine = await f.owner.client.post(presets(), { name: `private ${randomUUID()}`, model: 'deepseek-v4-flash' });
    expect(mine.status).toBe(201);
    const outsider = f.outsider;
    expect(errorCode(await outsider.client.get(presets()))).toBe('NOT_FOUND');
    expect(errorCode(await outsider.client.patch(`${presets()}/${mine.body.id}`, { thinking: true }))).toBe('NOT_FOUND');
    // Through their own team's path, the id of a preset of another team is not found either.
    const theirs = f.outsiderTeamId;
    expect(errorCode(await outsider.client.patch(`${presets(theirs)}/${mine.body.id}`, { thinking: true }))).toBe('NOT_FOUND');
    expect(errorCode(await outsider.client.delete(`${presets(theirs)}/${mine.body.id}`))).toBe('NOT_FOUND');
    expect(((await outsider.client.get(presets(theirs))).body as ModelPresetList).items).toEqual([]);
    expect((await f.viewer.client.get(presets())).body.items.find((i: ModelPreset) => i.id === mine.body.id)).toMatchObject({ thinking: false });
  });

  it(`should keep at most ${MODEL_PRESETS_PER_TEAM} presets per team (409 QUOTA_EXCEEDED)`, async () => {
    const teamId = await createTeam(f.owner, 'presets quota');
    for (let i = 0; i < MODEL_PRESETS_PER_TEAM; i++) {
      expect((await f.owner.client.post(presets(teamId), { name: `p${i}`, model: 'deepseek-v4-flash' })).status).toBe(201);
    }
    const over = await f.owner.client.post(presets(teamId), { name: 'one more', model: 'deepseek-v4-flash' });
    expect([over.status, errorCode(over)]).toEqual([409, 'QUOTA_EXCEEDED']);
    expect(over.body.error.message).toContain(String(MODEL_PRESETS_PER_TEAM));
  });
});
