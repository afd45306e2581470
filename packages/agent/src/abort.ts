/** Waiting and failing in step with a run's abort signal. */

/** The error an aborted run ends with: the reason the worker gave, else a plain one. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  // A bare `abort()` leaves a DOMException "This operation was aborted": say what it means here.
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  return new Error('agent run was stopped');
}

/** Resolves after `ms`, or rejects with the abort reason as soon as the signal is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
