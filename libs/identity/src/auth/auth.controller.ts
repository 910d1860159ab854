import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '@h/config';
import { ErrorResponseDto } from '@h/http';
import { Authenticated, CurrentPrincipal, Public } from '../access/access.decorators';
import type { Principal } from '../access/principal';
import { clearAuthCookies, setAuthCookies } from './auth-cookies';
import { AuthResponseDto, LoginDto, MeResponseDto, SignupDto, SignupOptionsDto } from './auth.dto';
import { AuthService, RequestMeta } from './auth.service';
import { MeService } from './me.service';

function metaOf(req: Request): RequestMeta {
  return { ip: req.ip ?? null, userAgent: req.headers['user-agent'] ?? null };
}

@ApiTags('auth')
@ApiBadRequestResponse({ type: ErrorResponseDto, description: 'Invalid input' })
@Controller('v1')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly me: MeService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('auth/signup')
  @ApiOkResponse({ type: SignupOptionsDto, description: 'Whether a person without an invitation may sign up here now (the sign-up page asks first)' })
  async signupOptions(): Promise<SignupOptionsDto> {
    return { signup: await this.auth.signupAvailability() };
  }

  @Public()
  @Post('auth/signup')
  @ApiCreatedResponse({
    type: AuthResponseDto,
    description: 'Signed up and signed in (cookies set). An email that has an account with this password signs in instead',
  })
  @ApiForbiddenResponse({ type: ErrorResponseDto, description: 'SIGNUP_INVITE_ONLY, SIGNUP_DISABLED, INVITATION_EMAIL_MISMATCH' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'INVITATION_INVALID' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'RATE_LIMITED (sign-ups per address), with Retry-After' })
  async signup(@Body() body: SignupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AuthResponseDto> {
    const session = await this.auth.signup(body, metaOf(req));
    setAuthCookies(res, this.config, session);
    const user = { id: session.user.id, email: session.user.email, name: session.user.name };
    return session.joined ? { user, joined: { teamId: session.joined.teamId, role: session.joined.role } } : { user };
  }

  @Public()
  @Post('auth/login')
  @HttpCode(200)
  @ApiOkResponse({ type: AuthResponseDto, description: 'Signed in (cookies set)' })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'INVALID_CREDENTIALS' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'RATE_LIMITED, with Retry-After' })
  async login(@Body() body: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AuthResponseDto> {
    const session = await this.auth.login(body, metaOf(req));
    setAuthCookies(res, this.config, session);
    return { user: { id: session.user.id, email: session.user.email, name: session.user.name } };
  }

  @Post('auth/logout')
  @HttpCode(204)
  @Authenticated()
  @ApiNoContentResponse({ description: 'Session ended and cookies cleared' })
  async logout(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.auth.logout(principal, metaOf(req));
    clearAuthCookies(res, this.config);
  }

  @Get('me')
  @Authenticated()
  @ApiOkResponse({ type: MeResponseDto })
  getMe(@CurrentPrincipal() principal: Principal): Promise<MeResponseDto> {
    return this.me.describe(principal);
  }
}
