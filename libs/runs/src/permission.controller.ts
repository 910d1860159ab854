import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, AccessGrant, ClientIp, CurrentAccess, CurrentPrincipal, Principal } from '@h/identity';
import { PermissionService } from './permission.service';
import { PermissionDecisionDto, PermissionDto, PermissionListDto, PermissionsQueryDto } from './run.dto';

@ApiTags('permissions')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class PermissionController {
  constructor(private readonly permissions: PermissionService) {}

  @Get('sessions/:id/permissions')
  @Access('session', 'id', 'viewer')
  @ApiOkResponse({ type: PermissionListDto })
  listPermissions(@Param('id') id: string, @Query() query: PermissionsQueryDto): Promise<PermissionListDto> {
    return this.permissions.list(id, query.status);
  }

  @Post('permissions/:id')
  @HttpCode(200)
  @Access('permission', 'id', 'member', { scope: 'run' })
  @ApiOkResponse({ type: PermissionDto, description: 'Recorded; the run resumes' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ALREADY_DECIDED' })
  decidePermission(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id') id: string,
    @Body() body: PermissionDecisionDto,
    @ClientIp() ip: string | null,
  ): Promise<PermissionDto> {
    return this.permissions.decide(principal, access, id, body, ip);
  }
}
