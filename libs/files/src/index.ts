export * from './files.module';
export * from './files.service';
export * from './files.dto';
export * from './file-path';
export * from './file-content';
export * from './files.exception';
export * from './files-watch.hub';
export * from './file-sandbox.service';
