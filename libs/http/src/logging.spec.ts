import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppConfig, parseEnv } from '@h/config';
import { detachedFromContext, withLogContext } from '@h/telemetry';
import { loggerOptions } from './logging';

function capture(): { logger: pino.Logger; lines: () => Record<string, unknown>[]; text: () => string } {
  const out: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      out.push(chunk.toString());
      done();
    },
  });
  const config = new AppConfig(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' }));
  return {
    logger: pino(loggerOptions(config, { service: 'worker' }), sink),
    lines: () => out.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)),
    text: () => out.join(''),
  };
}

describe('loggerOptions mixin', () => {
  it('should put the run id on every line written inside a run context, however deep the await chain', async () => {
    const { logger, lines } = capture();
    await withLogContext({ runId: 'run-1', jobId: '42' }, async () => {
      logger.info('claimed');
      await new Promise((r) => setImmediate(r));
      logger.child({ component: 'tools' }).warn('tool failed');
    });
    expect(lines()).toEqual([
      expect.objectContaining({ msg: 'claimed', runId: 'run-1', jobId: '42' }),
      expect.objectContaining({ msg: 'tool failed', runId: 'run-1', jobId: '42', component: 'tools' }),
    ]);
  });

  it('should keep the outer request id in a nested run context and add nothing outside any context', async () => {
    const { logger, lines } = capture();
    withLogContext({ requestId: 'req-7' }, () => withLogContext({ runId: 'run-2' }, () => logger.info('enqueued')));
    logger.info('idle');
    const [inside, outside] = lines();
    expect(inside).toMatchObject({ requestId: 'req-7', runId: 'run-2' });
    expect(outside).not.toHaveProperty('runId');
    expect(outside).not.toHaveProperty('requestId');
  });

  it('should not repeat an id the logger is already bound to', () => {
    const { logger, lines, text } = capture();
    withLogContext({ requestId: 'req-9', runId: 'run-9' }, () => logger.child({ requestId: 'req-9' }).info('request completed'));
    expect(lines()[0]).toMatchObject({ requestId: 'req-9', runId: 'run-9' });
    // JSON.parse keeps the last of two equal keys: count them in the text.
    expect(text().match(/"requestId"/g)).toHaveLength(1);
  });

  it("should log a lazily made resource's callbacks without the ids of the run that made it", async () => {
    const { logger, lines } = capture();
    let delivered: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (delivered = resolve));
    await withLogContext({ runId: 'run-first' }, async () => {
      // Like a Redis subscriber made by the first job: its events arrive later, from its own socket.
      detachedFromContext(() => {
        const source = new EventEmitter();
        source.on('message', () => {
          logger.info('bus message');
          delivered();
        });
        setImmediate(() => source.emit('message'));
      });
      logger.info('subscribed');
    });
    await done;
    const [subscribed, message] = lines();
    expect(subscribed).toMatchObject({ msg: 'subscribed', runId: 'run-first' });
    expect(message.msg).toBe('bus message');
    expect(message).not.toHaveProperty('runId');
  });
});
