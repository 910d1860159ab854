export * from './destination-policy';
export * from './egress-decision';
export * from './egress-proxy';
