import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { CreatedInvitation, Invitation, InvitationPreview, ListResponse, TeamRole } from '@h/contracts';
import { ASSIGNABLE_ROLES, ROLES } from '../teams/team.dto';

export class CreateInvitationDto {
  @ApiProperty({ enum: ASSIGNABLE_ROLES, description: 'Role the invitee gets; only owners may invite owners' })
  @IsIn(ASSIGNABLE_ROLES)
  role: (typeof ASSIGNABLE_ROLES)[number];

  @ApiPropertyOptional({ example: 'grace@example.com', maxLength: 254, description: 'Only an account with this email may accept it' })
  @IsOptional()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 30, description: 'Days until the link expires (default INVITATION_TTL_DAYS)', example: 7 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(30)
  expiresInDays?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 1, description: 'How many people may join with the link' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  maxUses?: number;
}

export class InvitationTokenDto {
  @ApiProperty({ description: 'The token from the invitation link /invite/<token>', pattern: '^[A-Za-z0-9_-]{20,100}$', example: 'inv_Q2x9fK3mWv7Lr8Tz1bYc4N' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{20,100}$/, { message: 'token must be the token of an invitation link' })
  token: string;
}

export class InvitationDto implements Invitation<Date> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ROLES }) role: TeamRole;
  @ApiProperty({ nullable: true, type: String, example: 'grace@example.com' }) email: string | null;
  @ApiProperty({ example: 1 }) maxUses: number;
  @ApiProperty({ example: 0 }) uses: number;
  @ApiProperty() expiresAt: Date;
  @ApiProperty() createdAt: Date;
  @ApiProperty({ description: 'Name of the person who made it', example: 'Ada Lovelace' }) createdByName: string;
}

export class InvitationListDto implements ListResponse<InvitationDto> {
  @ApiProperty({ type: [InvitationDto], description: 'Invitations that can still be used' }) items: InvitationDto[];
}

export class CreatedInvitationDto implements CreatedInvitation<Date> {
  @ApiProperty({ type: InvitationDto }) invitation: InvitationDto;
  @ApiProperty({ description: 'The secret part of the link. Shown once; only its hash is stored.', example: 'inv_Q2x9fK3mWv7Lr8Tz1bYc4N' }) token: string;
  @ApiProperty({ description: 'The link to send: H_PUBLIC_URL/invite/<token>', example: 'https://h.example.org/invite/inv_Q2x9fK3mWv7Lr8Tz1bYc4N' }) url: string;
}

export class InvitationPreviewDto implements InvitationPreview<Date> {
  @ApiProperty({ example: 'Platform' }) teamName: string;
  @ApiProperty({ enum: ROLES }) role: TeamRole;
  @ApiProperty({ nullable: true, type: String, description: 'Only this email may accept it', example: 'grace@example.com' }) email: string | null;
  @ApiProperty({ example: 'Ada Lovelace' }) invitedBy: string;
  @ApiProperty() expiresAt: Date;
}

export class JoinedTeamDto {
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ enum: ROLES }) role: TeamRole;
}
