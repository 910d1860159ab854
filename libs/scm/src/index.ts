export * from './scm.module';
export * from './scm.service';
export * from './scm.dto';
export * from './git-ref-name';
export * from './git-status-parse';
export * from './git-diff.service';
