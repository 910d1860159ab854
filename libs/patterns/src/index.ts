export * from './pattern-limits';
export * from './user-pattern';
export * from './match-budget';
export * from './line-filter';
