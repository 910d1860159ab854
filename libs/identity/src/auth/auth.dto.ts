import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SIGNUP_POLICIES, TEAM_ROLES, TOKEN_SCOPES, type TokenScope, type AuthResponse, type MeResponse, type MeTeam, type SignupAvailability, type SignupOptionsResponse, type TeamRole, type User } from '@h/contracts';

export class SignupDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: `At least ${PASSWORD_MIN_LENGTH} characters`, example: 'correct horse battery staple' })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH, { message: `password must be at least ${PASSWORD_MIN_LENGTH} characters long` })
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;

  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({
    description: 'Token of an invitation link: signs up under the invite policy and joins its team',
    pattern: '^[A-Za-z0-9_-]{20,100}$',
    example: 'inv_Q2x9fK3mWv7Lr8Tz1bYc4N',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{20,100}$/, { message: 'invitationToken must be the token of an invitation link' })
  invitationToken?: string;
}

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, example: 'correct horse battery staple' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password: string;
}

export class UserDto implements User {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ada@example.com' }) email: string;
  @ApiProperty({ example: 'Ada Lovelace' }) name: string;
}

export class JoinedDto {
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ enum: TEAM_ROLES }) role: TeamRole;
}

export class SignupOptionsDto implements SignupOptionsResponse {
  @ApiProperty({
    enum: SIGNUP_POLICIES,
    example: 'invite',
    description: 'open: anyone may sign up (or this is a fresh instance); invite: only with an invitation link; closed: no sign-ups',
  })
  signup: SignupAvailability;
}

export class AuthResponseDto implements AuthResponse {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiPropertyOptional({ type: JoinedDto, description: 'The team joined through the invitation given with the sign-up' })
  joined?: JoinedDto;
}

export class MeTeamDto implements MeTeam {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Platform' }) name: string;
  @ApiProperty({ example: 'platform' }) slug: string;
  @ApiProperty({ enum: TEAM_ROLES }) role: TeamRole;
}

export class MeTokenDto {
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, example: ['run'] }) scopes: TokenScope[];
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The one workspace the token may use; null: the whole team' })
  workspaceId: string | null;
}

export class MeResponseDto implements MeResponse {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: [MeTeamDto] }) teams: MeTeamDto[];
  @ApiProperty({ enum: ['user', 'token'], description: 'How this request was authenticated' }) via: MeResponse['via'];
  @ApiProperty({ description: 'The first account of the instance: the one quota messages tell people to ask', example: false }) instanceAdmin: boolean;
  @ApiPropertyOptional({ type: MeTokenDto, description: 'Only when the request came with an API token' }) token?: MeTokenDto;
}
