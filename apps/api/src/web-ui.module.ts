import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Module, type DynamicModule } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';

/** Where the web UI is served. Its files carry no data: they are open to all, like the probes. */
export const WEB_UI_PATH = '/ui';

/**
 * The built web UI (`npm run build` writes it to dist/ui), from the compiled module
 * (dist/apps/api/src) or from the sources run with tsx (apps/api/src).
 */
function webUiRoot(): string | undefined {
  return ['../../../ui', '../../../dist/ui']
    .map((p) => fileURLToPath(new URL(p, import.meta.url)))
    .find((dir) => existsSync(`${dir}/index.html`));
}

/**
 * Serves the web UI's static files at /ui, with the SPA fallback (any other /ui/… path answers
 * index.html, so shared links open). Express static middleware, so no guard runs on them: the UI
 * itself calls /v1 with the user's token. Absent when the UI was not built. express.static's
 * defaults hold: `index.html` for /ui/, `Cache-Control: public, max-age=0` (a new build shows at
 * once; the assets' names carry their hash).
 */
@Module({})
export class WebUiModule {
  static forRoot(): DynamicModule {
    const rootPath = webUiRoot();
    if (!rootPath) return { module: WebUiModule };
    return {
      module: WebUiModule,
      imports: [
        ServeStaticModule.forRoot({
          rootPath,
          serveRoot: WEB_UI_PATH,
        }),
      ],
    };
  }
}
