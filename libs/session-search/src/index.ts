export * from './search-query';
export * from './session-search.service';
export * from './session-query.service';
export * from './session-search.module';
export * from './session-search.dto';
