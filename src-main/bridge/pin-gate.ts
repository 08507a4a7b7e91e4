/**
 * The first route for `/p/{pin}/…` paths: a malformed pin is refused with 400 `invalid_project_pin`
 * before any room sees the request (never downgraded to an unpinned route), and a well-formed pin is
 * refused while project routing is `single` (there is only one project, and no pin to route by).
 */
import { INVALID_PROJECT_PIN, requestRoute, sendError, type RouteHandler } from '../shared/index.js';

export function pinGate(options: { multi: () => boolean; refused: (key: string, message: string) => void }): RouteHandler {
  return {
    handleRequest(req, res) {
      const route = requestRoute(req);
      if (route.kind === 'absent') return false;
      if (route.kind === 'malformed') {
        options.refused(`pin:${route.raw}`, `refused a malformed project pin path segment '${route.raw}'`);
        sendError(res, {
          code: INVALID_PROJECT_PIN,
          message: 'The project pin path segment is malformed: expected /p/ (lower-case) followed by 1-64 hexadecimal characters.',
        });
        return true;
      }
      if (options.multi()) return false;
      sendError(res, {
        code: 'ProjectNotConnected',
        message: 'Project-pinned routes are served only with project-routing=multi; this Junction serves one project at /mcp and /api/tools.',
      });
      return true;
    },
  };
}
