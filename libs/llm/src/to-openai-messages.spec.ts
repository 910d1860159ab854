import { toWireMessages } from './to-openai-messages';

describe(toWireMessages.name, () => {
  const call = (id: string, name: string) => ({ id, name, arguments: '{}' });

  it('should send tool results\' images as one user message after the last tool result of the turn', () => {
    const wire = toWireMessages([
      { role: 'user', content: 'look' },
      { role: 'assistant', content: null, toolCalls: [call('c1', 'browser_screenshot'), call('c2', 'browser_info')] },
      { role: 'tool', content: 'Screenshot: 1024x768', toolCallId: 'c1', name: 'browser_screenshot', images: [{ mimeType: 'image/png', data: 'AAAA' }] },
      { role: 'tool', content: 'URL: x', toolCallId: 'c2', name: 'browser_info' },
      { role: 'assistant', content: 'done' },
    ]);
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant']);
    expect(wire[2]).toEqual({ role: 'tool', content: 'Screenshot: 1024x768', tool_call_id: 'c1' });
    expect(wire[4].content).toEqual([
      { type: 'text', text: 'Image of the browser_screenshot result (call c1):' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
  });

  it('should add nothing when no tool result carries an image', () => {
    const wire = toWireMessages([
      { role: 'assistant', content: null, toolCalls: [call('c1', 'read_file')] },
      { role: 'tool', content: 'text', toolCallId: 'c1' },
    ]);
    expect(wire).toHaveLength(2);
  });
});
