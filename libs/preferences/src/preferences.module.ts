import { Module } from '@nestjs/common';
import { IdentityModule } from '@h/identity';
import { IdeStateController } from './ide-state.controller';
import { PreferencesService } from './preferences.service';
import { UserPreferencesController } from './user-preferences.controller';

@Module({
  imports: [IdentityModule],
  controllers: [IdeStateController, UserPreferencesController],
  providers: [PreferencesService],
})
export class PreferencesModule {}
