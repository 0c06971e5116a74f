type Level = 'debug' | 'info' | 'warn' | 'error';

/** A structured logger that writes one JSON line per event. */
export function createLogger(scope: string, sink: (line: string) => void = console.log) {
  const write = (level: Level, message: string, fields: Record<string, unknown> = {}) =>
    sink(JSON.stringify({ time: new Date().toISOString(), level, scope, message, ...fields }));
  return {
    debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
    info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
    warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
    error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
  };
}

/** The logger type returned by {@link createLogger}. */
export type Logger = ReturnType<typeof createLogger>;
