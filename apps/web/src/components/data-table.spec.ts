import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiError } from '../lib/api-client';
import type { ApiQuery } from '../lib/use-api-query';
import { DataTable, ListState } from './data-table';

const query = (over: Partial<ApiQuery<{ items: unknown[] }>>): ApiQuery<{ items: unknown[] }> => ({
  data: undefined,
  error: undefined,
  loading: false,
  reload: () => undefined,
  ...over,
});
const state = (q: ApiQuery<{ items: unknown[] }>) => renderToStaticMarkup(createElement(ListState, { query: q, loading: 'Loading tokens…', empty: 'No API tokens.' }));

describe(DataTable.name, () => {
  it('should name the table, head each column and give the actions column a header only screen readers hear', () => {
    const html = renderToStaticMarkup(createElement(DataTable, { label: 'API tokens', columns: ['Name', 'Expires'], actions: true, children: createElement('tr', null) }));
    expect(html).toBe(
      '<div class="table-scroll"><table class="table" aria-label="API tokens"><thead><tr>' +
        '<th scope="col">Name</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th>' +
        '</tr></thead><tbody><tr></tr></tbody></table></div>',
    );
    expect(renderToStaticMarkup(createElement(DataTable, { label: 'Limits', columns: ['What'], children: null }))).not.toContain('Actions');
  });
});

describe(ListState.name, () => {
  it('should say it is loading until the first answer, then nothing while there are rows', () => {
    expect(state(query({ loading: true }))).toBe('<p class="muted">Loading tokens…</p>');
    expect(state(query({ data: { items: [1] } }))).toBe('');
  });

  it('should say the list is empty only once the answer had no items', () => {
    expect(state(query({ data: { items: [] } }))).toBe('<p class="empty">No API tokens.</p>');
  });

  it('should show the error as an alert instead of "loading" when the first load failed', () => {
    const html = state(query({ error: new ApiError(500, 'INTERNAL', 'The server failed.') }));
    expect(html).toContain('role="alert"');
    expect(html).toContain('The server failed.');
    expect(html).not.toContain('Loading');
  });
});
