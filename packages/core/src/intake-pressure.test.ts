import { afterEach, describe, expect, it } from 'vitest';
import { IntakePressure } from './intake-pressure.js';

/** Keeps the event loop busy for `ms`, as a flood of requests does. */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const pressures: IntakePressure[] = [];
afterEach(() => {
  for (const pressure of pressures.splice(0)) pressure.stop();
});

function pressure(onRelief: () => void = () => undefined): IntakePressure {
  const made = new IntakePressure(onRelief);
  pressures.push(made);
  return made;
}

describe('IntakePressure', () => {
  it('is active after a window of a busy loop with many accepts, and calls back when it ends', async () => {
    let reliefs = 0;
    const intake = pressure(() => reliefs++);
    intake.measure();
    for (let i = 0; i < 50; i++) intake.noteAccept();
    busyFor(60);
    intake.measure();
    expect(intake.active).toBe(true);
    await idle(60);
    intake.measure();
    expect(intake.active).toBe(false);
    expect(reliefs).toBe(1);
  });

  it('is not active for a busy loop without accepts (the workers own load)', () => {
    const intake = pressure();
    intake.measure();
    busyFor(60);
    intake.measure();
    expect(intake.active).toBe(false);
  });

  it('is not active for many accepts on an idle loop', async () => {
    const intake = pressure();
    intake.measure();
    for (let i = 0; i < 50; i++) intake.noteAccept();
    await idle(60);
    intake.measure();
    expect(intake.active).toBe(false);
  });
});
