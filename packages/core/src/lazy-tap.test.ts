import { describe, expect, it } from 'vitest';
import { lazyTap } from './lazy-tap.js';

describe('lazyTap', () => {
  it('imports the module at the first call only, then calls its export with the arguments', async () => {
    let imports = 0;
    const double = lazyTap(async () => {
      imports += 1;
      return { double: (value: number) => Promise.resolve(value * 2) };
    }, 'double');
    expect(imports).toBe(0);
    await expect(Promise.all([double(2), double(3)])).resolves.toEqual([4, 6]);
    await expect(double(5)).resolves.toBe(10);
    expect(imports).toBe(1);
  });

  it('rejects with the export’s own error', async () => {
    const fail = lazyTap(
      async () => ({
        fail: (message: string): Promise<never> => Promise.reject(new Error(message)),
      }),
      'fail',
    );
    await expect(fail('target refused')).rejects.toThrow('target refused');
  });
});
