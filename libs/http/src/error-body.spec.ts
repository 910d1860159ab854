import { errorBodyFor } from './error-body';

describe('errorBodyFor', () => {
  it("should answer h2c's routes in h2c's shape and every other path in H's", () => {
    expect(errorBodyFor('/v1/task/output?task_id=task_x', 404, 'NOT_FOUND', 'Task not found')).toEqual({ error: 'not_found', message: 'Task not found' });
    expect(errorBodyFor('/v1/task/permission', 409, 'NO_PENDING_REQUEST', 'nothing waits')).toEqual({ error: 'no_pending_request', message: 'nothing waits' });
    expect(errorBodyFor('/v1/task', 401, 'UNAUTHENTICATED', 'no token')).toEqual({ error: 'unauthorized', message: 'no token' });
    expect(errorBodyFor('/v1/task/create', 429, 'QUOTA_EXCEEDED', 'full')).toEqual({ error: 'rate_limited', message: 'full' });
    expect(errorBodyFor('/api/v1/runs/x', 404, 'NOT_FOUND', 'Run not found')).toEqual({ error: { code: 'NOT_FOUND', message: 'Run not found' } });
    expect(errorBodyFor('/v1/tasks', 404, 'NOT_FOUND', 'x')).toEqual({ error: { code: 'NOT_FOUND', message: 'x' } });
    expect(errorBodyFor('/api/v1/files', 409, 'EDIT_CONFLICT', 'x', { current: 1 })).toEqual({ error: { current: 1, code: 'EDIT_CONFLICT', message: 'x' } });
  });
});
