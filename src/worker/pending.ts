/**
 * The calls an engine has in flight, so that one event (a worker crash, `close()`) can reject them
 * all at once. Each call settles once: with its own outcome, or with the rejection that came first.
 */
export class PendingCalls {
  readonly #rejects = new Set<(error: Error) => void>();

  /** Runs `start` (a throw counts as a rejection) and settles with its outcome unless {@link rejectAll} came first. */
  track<T>(start: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#rejects.add(reject);
      const settle = (fn: () => void): void => {
        if (this.#rejects.delete(reject)) fn();
      };
      let running: Promise<T>;
      try {
        running = start();
      } catch (error) {
        running = Promise.reject(error);
      }
      running.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  /** Rejects every call still in flight with `error`; their outcomes, when they come, are dropped. */
  rejectAll(error: Error): void {
    for (const reject of this.#rejects) reject(error);
    this.#rejects.clear();
  }
}
