import { assertOneHandlerPerJob, JobName, parseJobPayload } from './job.registry';

describe('job registry', () => {
  const all = Object.values(JobName).map((job) => ({ job, owner: `H.${job}` }));

  it('should accept exactly one handler per job', () => {
    expect(() => assertOneHandlerPerJob(all)).not.toThrow();
  });

  it('should refuse to boot when a job has no handler', () => {
    expect(() => assertOneHandlerPerJob([])).toThrow(/has no handler/);
  });

  it('should refuse to boot when a job has two handlers', () => {
    expect(() => assertOneHandlerPerJob([...all, { job: JobName.WorkspaceSetup, owner: 'Other.setup' }])).toThrow(/2 handlers/);
  });

  it('should refuse a payload that does not match the job', () => {
    expect(() => parseJobPayload(JobName.WorkspaceSetup, { workspaceId: 'nope' })).toThrow();
  });
});
