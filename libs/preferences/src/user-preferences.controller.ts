import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { CurrentPrincipal, type Principal, UserOnly } from '@h/identity';
import { PutUserPreferencesDto, UserPreferencesResponseDto } from './preferences.dto';
import { PreferencesService } from './preferences.service';

// A person's editor preferences follow them to every workspace and browser; API tokens act for
// a team, not a person's editor, so they are refused.
@ApiTags('ide')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1/me/preferences')
export class UserPreferencesController {
  constructor(private readonly preferences: PreferencesService) {}

  @Get()
  @UserOnly()
  @ApiOperation({ summary: 'The signed-in user\'s editor preferences (defaults until stored)' })
  @ApiOkResponse({ type: UserPreferencesResponseDto })
  getPreferences(@CurrentPrincipal() principal: Principal): Promise<UserPreferencesResponseDto> {
    return this.preferences.preferences(principal.userId);
  }

  @Put()
  @UserOnly()
  @ApiOperation({ summary: 'Change editor preferences: the fields sent replace the stored ones, the others stay' })
  @ApiOkResponse({ type: UserPreferencesResponseDto })
  putPreferences(@CurrentPrincipal() principal: Principal, @Body() body: PutUserPreferencesDto): Promise<UserPreferencesResponseDto> {
    return this.preferences.putPreferences(principal.userId, body);
  }
}
