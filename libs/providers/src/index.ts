export * from './providers.module';
export * from './provider-key.service';
export * from './master-key.service';
export * from './secret-box.service';
export * from './provider.dto';
export * from './provider-secret.reader';
export * from './provider-secrets.module';
