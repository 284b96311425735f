import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG } from './config.constant.js';
import type { AppConfig } from './config.types.js';

/** Provides the frozen {@link AppConfig} (parsed once, before the application is built). */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
