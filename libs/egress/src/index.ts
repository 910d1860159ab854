export * from './destination-policy';
export * from './egress-decision';
export * from './egress-proxy';
export * from './egress.service';
export * from './egress.module';
