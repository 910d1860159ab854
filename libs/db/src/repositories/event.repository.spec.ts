import { InvalidEventError } from '@h/contracts';
import type { PrismaService } from '../prisma.service';
import { EventRepository } from './event.repository';

describe(EventRepository.name, () => {
  it('should refuse an event that breaks its contract before touching the database', async () => {
    const queried: unknown[] = [];
    const prisma = { $queryRaw: (...args: unknown[]) => queried.push(args) } as unknown as PrismaService;
    const events = new EventRepository(prisma);
    await expect(events.append('s', [{ type: 'permission.requested', data: { permissionId: 'p' } }])).rejects.toThrow(InvalidEventError);
    await expect(events.append('s', [{ type: 'made.up', data: {} }])).rejects.toThrow(/unknown event type/);
    expect(queried).toEqual([]);
  });
});
