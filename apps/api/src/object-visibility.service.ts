import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_REVIEWER, objectAccess, type AccessReviewer, type Caller } from '../../../libs/audit/src/index.js';
import { OwnershipQueries } from '../../../libs/store/src/index.js';

/** Keeps the objects of a list the caller may `get` (every distinct cluster/resource/namespace/name asked once, answers cached by the reviewer). */
@Injectable()
export class ObjectVisibility {
  constructor(
    @Inject(ACCESS_REVIEWER) private readonly reviewer: AccessReviewer | null,
    @Inject(OwnershipQueries) private readonly queries: OwnershipQueries,
  ) {}

  async visible<T extends { readonly id: string }>(caller: Caller, items: readonly T[]): Promise<T[]> {
    if (this.reviewer === null || items.length === 0) return [...items];
    const reviewer = this.reviewer;
    const identities = await this.queries.accessIdentities(items.map((i) => i.id));
    const allowed = await Promise.all(
      items.map(async (i) => {
        const identity = identities.get(i.id);
        return identity !== undefined && (await reviewer.allowed(caller, identity.cluster, objectAccess(identity)));
      }),
    );
    return items.filter((_, k) => allowed[k]);
  }
}
