import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RunStatusLine } from './run-status-line';
import { EMPTY_USAGE } from './transcript-state';
import { UsagePanel } from './usage-panel';

// The unit tier compiles JSX with the classic runtime (React.createElement); Next uses the automatic one.
(globalThis as { React?: typeof React }).React = React;
const { createElement } = React;

const usage = { ...EMPTY_USAGE, requests: 2, promptTokens: 5_000, completionTokens: 200, cacheHitTokens: 3_000, cacheMissTokens: 2_000, costUsd: 0.001 };
const context = { tokens: 12_345, window: 1_000_000 };

describe('context use in the console', () => {
  it('should show "~N / M tokens, X %" in the status line and the usage panel', () => {
    const line = renderToStaticMarkup(createElement(RunStatusLine, { status: 'running', position: null, error: null, usage, context }));
    expect(line).toContain('~12k / 1.0M tokens, 1.2 %');
    const panel = renderToStaticMarkup(createElement(UsagePanel, { usage, context }));
    expect(panel).toContain('<dt>Context</dt>');
    expect(panel).toContain('~12k / 1.0M tokens, 1.2 %');
  });

  it('should show nothing about context before the first request', () => {
    expect(renderToStaticMarkup(createElement(RunStatusLine, { status: null, position: null, error: null, usage: EMPTY_USAGE, context: null }))).not.toContain('tokens,');
  });
});
