import { describe, expect, it } from 'vitest';
import { GraphQLError } from '../../src/api/graphql.js';
import { EngineTimeoutError, classifyError, clientErrorCode } from '../../src/api/errors.js';
import { ErrorCode, GraftError, LakeReadError } from '../../src/util/errors.js';

describe('one error-code enum', () => {
  it('every GraftError code reaches the client as itself, except LAKE_READ (BAD_USER_INPUT)', () => {
    for (const code of Object.values(ErrorCode)) {
      const c = classifyError(new GraftError(code, 'm'), undefined);
      expect(c.code).toBe(code === ErrorCode.LAKE_READ ? ErrorCode.BAD_USER_INPUT : code);
      expect(clientErrorCode(code)).toBe(c.code);
      expect(c.public).toBe(code !== ErrorCode.INTERNAL);
    }
    expect(classifyError(new LakeReadError('/lake/x.csv', 'bad header'), undefined).code).toBe(ErrorCode.BAD_USER_INPUT);
  });

  it('an engine timeout is a GraftError with code TIMEOUT', () => {
    const e = new EngineTimeoutError('synthesize', 20);
    expect(e).toBeInstanceOf(GraftError);
    expect(classifyError(e, undefined)).toEqual({ code: ErrorCode.TIMEOUT, public: true });
  });

  it('CATALOG_IN_USE carries a production message without the holder', () => {
    const c = classifyError(new GraftError(ErrorCode.CATALOG_IN_USE, 'in use by process 42 (`graft serve`)'), undefined);
    expect(c.code).toBe(ErrorCode.CATALOG_IN_USE);
    expect(c.productionMessage).toBeDefined();
    expect(c.productionMessage).not.toContain('42');
  });

  it('codes Apollo put on its own errors: ours pass, its client codes become BAD_USER_INPUT, LAKE_READ and unknown ones do not pass', () => {
    expect(classifyError(new GraphQLError('x'), 'TIMEOUT').code).toBe(ErrorCode.TIMEOUT);
    expect(classifyError(undefined, 'GRAPHQL_PARSE_FAILED')).toEqual({ code: ErrorCode.BAD_USER_INPUT, public: true, reason: 'GRAPHQL_PARSE_FAILED' });
    expect(classifyError(undefined, 'LAKE_READ').code).toBe(ErrorCode.INTERNAL);
    expect(classifyError(new Error('boom'), undefined)).toEqual({ code: ErrorCode.INTERNAL, public: false });
  });
});
