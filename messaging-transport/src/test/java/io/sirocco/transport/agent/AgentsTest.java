package io.sirocco.transport.agent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentsTest
{
    @Test
    void shouldRunTheAgentOnADaemonThreadNamedAfterItsRole() throws Exception
    {
        final CompletableFuture<Thread> ran = new CompletableFuture<>();
        final Agent agent = new Agent()
        {
            @Override
            public int doWork()
            {
                ran.complete(Thread.currentThread());
                return 0;
            }

            @Override
            public String roleName()
            {
                return "agents-test";
            }
        };
        try (AgentRunner runner = Agents.start(agent, new SleepingMillisIdleStrategy(1)))
        {
            final Thread thread = ran.get(10, TimeUnit.SECONDS);
            assertEquals("sirocco-agents-test", thread.getName());
            assertTrue(thread.isDaemon());
            assertEquals(thread, runner.thread());
        }
    }
}
