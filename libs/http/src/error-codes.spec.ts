import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiBadRequestResponse, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODE_LIST, ERROR_CODES, type ErrorBody, type ErrorCode } from '@h/contracts';
import { AppException } from './app.exception';
import { errorBody, errorStatus } from './error-body';
import { ErrorResponseDto } from './error-response.dto';

// By type: whatever carries a code to a client takes the registry's union, so an unregistered
// code does not compile (tsc checks this file with the rest).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typed: [Equal<AppException['code'], ErrorCode>, Equal<ErrorBody['error']['code'], ErrorCode>, Equal<Parameters<typeof errorBody>[0], ErrorCode>] = [true, true, true];

const root = join(__dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return ['node_modules', 'generated', '.next', 'dist'].includes(d.name) ? [] : sources(path);
    return /\.tsx?$/.test(d.name) && !/\.spec\.tsx?$/.test(d.name) ? [path] : [];
  });
}

// The ways a code is written by hand next to a message; tool-level codes (sandbox, workspace)
// are another vocabulary and use none of these.
const CODE_SITES = [
  /AppException\.(?:badRequest|conflict)\(\s*'([A-Z_]+)'/g,
  /AppException\.(?:forbidden|notFound)\([^;]*?,\s*'([A-Z_]+)'\s*\)/g,
  /new AppException\(\s*[\w.]+,\s*'([A-Z_]+)'/g,
  /new RunFailure\(\s*'([A-Z_]+)'/g,
  /(?:errorBody|errorStatus|sendError|refusal)\((?:res,\s*)?'([A-Z_]+)'/g,
];

@Controller()
class ProbeController {
  @Get()
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  probe(): string {
    return 'ok';
  }
}
@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('the error code registry', () => {
  it('should hold codes in one casing, each with an HTTP error status or none', () => {
    expect(typed).toEqual([true, true, true]);
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(info.description.length).toBeGreaterThan(10);
      if (info.status !== null) expect(info.status >= 400 && info.status <= 599).toBe(true);
    }
    expect(errorStatus('PAYLOAD_TOO_LARGE')).toBe(413);
  });

  it('should register every code the apps and libraries write by hand', () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const file of [...sources(join(root, 'apps')), ...sources(join(root, 'libs'))]) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of CODE_SITES) {
        for (const m of text.matchAll(pattern)) {
          seen++;
          if (!Object.hasOwn(ERROR_CODES, m[1])) unknown.push(`${relative(root, file)}: ${m[1]}`);
        }
      }
    }
    // The scan finds the call sites it is meant to (dozens today), so it cannot pass by matching nothing.
    expect(seen).toBeGreaterThan(20);
    expect(unknown).toEqual([]);
  });

  it('should list every registered code in the OpenAPI error schema', async () => {
    const app = await NestFactory.create(ProbeModule, { logger: false });
    try {
      const doc = SwaggerModule.createDocument(app, { openapi: '3.0.0', info: { title: 'probe', version: '1' } });
      const schemas = doc.components?.schemas as Record<string, { properties?: Record<string, { allOf?: { $ref: string }[] }>; enum?: string[] }>;
      expect(schemas.ErrorDetailDto.properties?.code.allOf).toEqual([{ $ref: '#/components/schemas/ErrorCode' }]);
      expect(schemas.ErrorCode.enum).toEqual(ERROR_CODE_LIST);
    } finally {
      await app.close();
    }
  });
});
