import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class SignupDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 10, maxLength: 256, description: 'At least 10 characters' })
  @IsString()
  @MinLength(10, { message: 'password must be at least 10 characters long' })
  @MaxLength(256)
  password: string;

  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({ description: 'Token of an invitation link: signs up under the invite policy and joins its team', pattern: '^[A-Za-z0-9_-]{20,100}$' })
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

  @ApiProperty({ minLength: 1, maxLength: 256 })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password: string;
}

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
}

export class JoinedDto {
  @ApiProperty({ format: 'uuid' }) teamId: string;
  @ApiProperty({ enum: ['owner', 'admin', 'member', 'viewer'] }) role: string;
}

export class AuthResponseDto {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiPropertyOptional({ type: JoinedDto, description: 'The team joined through the invitation given with the sign-up' })
  joined?: JoinedDto;
}

export class MeTeamDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ enum: ['owner', 'admin', 'member', 'viewer'] }) role: string;
}

export class MeResponseDto {
  @ApiProperty({ type: UserDto }) user: UserDto;
  @ApiProperty({ type: [MeTeamDto] }) teams: MeTeamDto[];
  @ApiProperty({ enum: ['user', 'token'], description: 'How this request was authenticated' }) via: string;
  @ApiProperty({ description: 'The first account of the instance: the one quota messages tell people to ask' }) instanceAdmin: boolean;
}
