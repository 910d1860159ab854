import { Injectable } from '@nestjs/common';

export interface ResourceOwner {
  teamId: string;
  /** Set when the resource lives inside a workspace, so workspace-bound tokens can be checked. */
  workspaceId: string | null;
}

export type ResourceResolver = (id: string) => Promise<ResourceOwner | null>;

// Feature modules register how to find the team that owns their resources ('workspace', later
// 'session', 'run', ...). The access guard stays generic.
@Injectable()
export class ResourceResolverRegistry {
  private readonly resolvers = new Map<string, ResourceResolver>();

  register(resource: string, resolver: ResourceResolver): void {
    if (this.resolvers.has(resource)) throw new Error(`resource resolver "${resource}" registered twice`);
    this.resolvers.set(resource, resolver);
  }

  get(resource: string): ResourceResolver {
    const resolver = this.resolvers.get(resource);
    if (!resolver) throw new Error(`no resource resolver registered for "${resource}"`);
    return resolver;
  }
}
