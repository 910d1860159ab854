import { loadScenarioFile, builtinScenarioDir } from '@h/scripted-model';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createAgentKit, type AgentKit } from './testing/agent-test-kit';

describe('runAgent', () => {
  let kit: AgentKit;
  beforeEach(async () => (kit = await createAgentKit()));
  afterEach(() => kit.close());

  it('should fix a failing test end to end over HTTP', async () => {
    const scenario = loadScenarioFile(join(builtinScenarioDir(), 'fix-failing-test.json'));
    const result = await kit.run(scenario);
    console.log(JSON.stringify(kit.events.filter(e => !e.type.endsWith('delta')), null, 1).slice(0, 6000));
    console.log(kit.server.failures);
    expect(result.status).toBe('done');
    expect(readFileSync(join(kit.dir, 'src/math.js'), 'utf8')).toContain('a + b');
  });
});
