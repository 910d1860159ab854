import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { AdminController } from './admin.controller';
import { AdminService } from './admin.service';
import { QueueBoard } from './queue-board';

/** The instance admin pages (issue 15): the instance API and Bull Board. The api imports it. */
@Module({
  imports: [IdentityModule],
  controllers: [AdminController],
  providers: [AdminService, QueueBoard],
})
export class AdminModule {}
