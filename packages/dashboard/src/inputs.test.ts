import { describe, expect, it } from 'vitest';
import { deliveriesQuerySchema, loginFormSchema, paramsObject, safeNextPath } from './inputs.js';

const query = (text: string) =>
  deliveriesQuerySchema.safeParse(paramsObject(new URLSearchParams(text)));

describe('deliveriesQuerySchema', () => {
  it('reads a route and a status', () => {
    expect(query('route=reviews&status=failed').data).toEqual({
      route: 'reviews',
      status: 'failed',
    });
  });

  it('treats empty fields as no filter', () => {
    expect(query('route=&status=').data).toEqual({ route: undefined, status: undefined });
  });

  it('refuses a status that does not exist', () => {
    expect(query('status=exploded').success).toBe(false);
  });

  it('refuses an overlong route', () => {
    expect(query(`route=${'r'.repeat(201)}`).success).toBe(false);
  });
});

describe('loginFormSchema', () => {
  it('requires a token field', () => {
    expect(loginFormSchema.safeParse({}).success).toBe(false);
  });
});

describe('safeNextPath', () => {
  it('keeps a dashboard path with its query', () => {
    expect(safeNextPath('/dashboard/deliveries/abc?replayed=1')).toBe(
      '/dashboard/deliveries/abc?replayed=1',
    );
  });

  it.each([
    'https://evil.example/dashboard',
    '//evil.example/dashboard',
    '/\\evil.example/dashboard',
    '/metrics',
    '/dashboard/login',
    '/dashboardx',
    'javascript:alert(1)',
  ])('sends %s to the dashboard instead', (next) => {
    expect(safeNextPath(next)).toBe('/dashboard');
  });
});
