import { useMigrationDatabase } from '../../support/migration-database';

// Logs written before full outputs moved out of `tool.end` events carry them in data.fullOutput:
// the migration moves each into ToolOutput under its [cmd #N] number and leaves the locator.
const TARGET = '20261201090100_tool_outputs';

describe(`migration ${TARGET}`, () => {
  const m = useMigrationDatabase('outputs');

  it('should move fullOutput out of tool.end events into ToolOutput and keep the locator', async () => {
    await m.upTo(TARGET);
    const session = await m.seedSession();
    const full = `all ✓\n${'of it\n'.repeat(1000)}`;
    await m.db().query(`INSERT INTO "Event" ("sessionId", seq, type, data) VALUES ($1, 1, 'tool.end', $2), ($1, 2, 'tool.end', $3), ($1, 3, 'note', $4)`, [
      session,
      JSON.stringify({ toolCallId: 'c1', name: 'run_command', result: '[cmd #1] key lines', isError: false, durationMs: 1, outputId: 1, outputLabel: 'npm test', fullOutput: full }),
      JSON.stringify({ toolCallId: 'c2', name: 'read_file', result: 'small', isError: false, durationMs: 1 }),
      JSON.stringify({ fullOutput: 'not a tool.end: left alone' }),
    ]);

    await m.apply(TARGET);

    const events = (await m.db().query(`SELECT seq, data FROM "Event" ORDER BY seq`)).rows;
    expect(events[0].data).toEqual({
      toolCallId: 'c1', name: 'run_command', result: '[cmd #1] key lines', isError: false, durationMs: 1,
      outputId: 1, outputLabel: 'npm test', outputBytes: Buffer.byteLength(full), outputTruncated: false,
    });
    expect(events[1].data).toEqual({ toolCallId: 'c2', name: 'read_file', result: 'small', isError: false, durationMs: 1 });
    expect(events[2].data).toEqual({ fullOutput: 'not a tool.end: left alone' });
    const outputs = (await m.db().query(`SELECT "sessionId", number, "callId", label, bytes, truncated, content FROM "ToolOutput"`)).rows;
    expect(outputs).toEqual([{ sessionId: session, number: 1, callId: 'c1', label: 'npm test', bytes: Buffer.byteLength(full), truncated: false, content: full }]);
  });
});
