import { describe, expect, it } from 'vitest';
import { journalId } from './journal-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('journalId', () => {
  it('is a UUIDv7 whose first 48 bits are the time in milliseconds', () => {
    const now = Date.UTC(2026, 10, 22, 5, 30);
    const id = journalId(now);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
  });

  it('sorts ids of later milliseconds after earlier ones, and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => journalId(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => journalId(0))).size).toBe(10_000);
  });
});
