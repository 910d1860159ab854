import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '@h/http';
import { Access, ClientIp, CurrentAccess, CurrentPrincipal, Public, UserOnly } from '../access/access.decorators';
import type { AccessGrant, Principal } from '../access/principal';
import {
  CreatedInvitationDto,
  CreateInvitationDto,
  InvitationListDto,
  InvitationPreviewDto,
  InvitationTokenDto,
  JoinedTeamDto,
} from './invitation.dto';
import { InvitationService } from './invitation.service';

// The token travels in request bodies, never in an api path, so request logs cannot hold it.
@ApiTags('teams')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class InvitationController {
  constructor(private readonly invitations: InvitationService) {}

  @Post('teams/:teamId/members')
  @UserOnly()
  @Access('team', 'teamId', 'admin')
  @ApiCreatedResponse({
    type: CreatedInvitationDto,
    description: 'Invites a member: makes an invitation link (shown once). Nobody is added until the invitee accepts it',
  })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ALREADY_MEMBER (the email restriction names a member)' })
  inviteMember(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Body() body: CreateInvitationDto,
    @ClientIp() ip: string | null,
  ): Promise<CreatedInvitationDto> {
    return this.invitations.create(principal, access, body, ip);
  }

  @Get('teams/:teamId/invitations')
  @UserOnly()
  @Access('team', 'teamId', 'admin')
  @ApiOkResponse({ type: InvitationListDto, description: 'Pending invitations (not expired, revoked or used up)' })
  listInvitations(@CurrentAccess() access: AccessGrant): Promise<InvitationListDto> {
    return this.invitations.listPending(access);
  }

  @Delete('teams/:teamId/invitations/:id')
  @HttpCode(204)
  @UserOnly()
  @Access('team', 'teamId', 'admin')
  @ApiNoContentResponse({ description: 'Revoked; the link stops working at once' })
  revokeInvitation(
    @CurrentPrincipal() principal: Principal,
    @CurrentAccess() access: AccessGrant,
    @Param('id', new ParseUUIDPipe()) id: string,
    @ClientIp() ip: string | null,
  ): Promise<void> {
    return this.invitations.revoke(principal, access, id, ip);
  }

  @Public()
  @Post('invitations/lookup')
  @HttpCode(200)
  @ApiOkResponse({ type: InvitationPreviewDto, description: 'The team and role an invitation link offers' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'INVITATION_INVALID' })
  lookupInvitation(@Body() body: InvitationTokenDto): Promise<InvitationPreviewDto> {
    return this.invitations.preview(body.token);
  }

  @Post('invitations/accept')
  @HttpCode(200)
  @UserOnly()
  @ApiOkResponse({ type: JoinedTeamDto, description: 'Joined the team with the invitation’s role' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'INVITATION_INVALID' })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'INVITATION_EMAIL_MISMATCH, or an API token (TOKEN_NOT_ALLOWED)' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'ALREADY_MEMBER' })
  acceptInvitation(@CurrentPrincipal() principal: Principal, @Body() body: InvitationTokenDto, @ClientIp() ip: string | null): Promise<JoinedTeamDto> {
    return this.invitations.acceptAs(principal, body.token, ip);
  }
}
