import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * The server's logger: pino's pretty printer when stdout is a terminal (or IVORY_LOG_FORMAT is
 * `pretty`), one JSON object per line otherwise. Fastify's own two lines per request (incoming,
 * completed) are off: `registerRequestLog` writes one line when the response is sent.
 */
export function loggerOptions(
  level: string,
  format: LogFormat = 'auto',
  isTerminal = Boolean(process.stdout.isTTY),
): NonNullable<FastifyServerOptions['logger']> {
  const usePretty = format === 'pretty' || (format === 'auto' && isTerminal);
  if (!usePretty) return { level };
  return {
    level,
    stream: pretty({
      colorize: isTerminal,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
    }),
  };
}

/**
 * One line per request: method, URL, status and time, at info; at warn for a 5xx but 501, the
 * answer to a call this server does not offer (auth calls with sign-in off, as pachd's "not
 * activated"), which the console makes on every page and is no failure.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const status = reply.statusCode;
    const line = `${request.method} ${request.url} ${status} ${ms}ms`;
    // reqId comes from the request's child logger (`request.log`), so it is not repeated here.
    const fields = {
      method: request.method,
      url: request.url,
      statusCode: status,
      responseTime: ms,
    };
    if (status >= 500 && status !== 501) request.log.warn(fields, line);
    else request.log.info(fields, line);
  });
}
