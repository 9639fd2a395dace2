/** The ClassAd language: lexer, parser, values, evaluation, matching and ranking. */
package org.braid.matchmaking;
