import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document of the API, built from the controllers and their zod DTO schemas. */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('ssa-audit')
    .setDescription(
      'Who owns a Kubernetes field, since when, how it changed hands, why it is still there, and what an apply would do. ' +
        'Every read accepts at= (RFC 3339 time or event sequence); paths are accepted in kubectl and FieldsV1 form; lists are cursor-paginated.',
    )
    .setVersion('1')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs, the document at /docs-json. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => openApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
