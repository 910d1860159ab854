import { Env, parseEnv } from './env.schema';

// The config service: everything reads settings through this, never process.env directly.
export class AppConfig {
  constructor(readonly env: Env) {}

  static fromProcess(): AppConfig {
    return new AppConfig(parseEnv(process.env));
  }

  get isProduction(): boolean {
    return this.env.NODE_ENV === 'production';
  }

  get secureCookies(): boolean {
    return this.env.H_SECURE_COOKIES ?? this.isProduction;
  }

  get publicUrl(): string {
    return this.env.H_PUBLIC_URL ?? `http://localhost:${this.env.H_PORT}`;
  }
}
