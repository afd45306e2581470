/**
 * A promise a test opens when it chooses: a slow agent that holds its route's slot until the
 * test has seen what waits behind it.
 *
 * @example const held = gate(); hold: () => held.opened; … held.open();
 */
export interface Gate {
  /** Settles once `open` is called. */
  opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
