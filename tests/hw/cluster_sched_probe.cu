// Cluster scheduling probe (issue 18): occupancy queries, residency, GPC layout, launch errors.
#include <cstdio>
#include <vector>
#define PR(...) printf(__VA_ARGS__)
__device__ unsigned sreg_smid(){unsigned v;asm volatile("mov.u32 %0,%%smid;":"=r"(v));return v;}
__device__ unsigned sreg_nsmid(){unsigned v;asm volatile("mov.u32 %0,%%nsmid;":"=r"(v));return v;}
__device__ unsigned sreg_cid(){unsigned v;asm volatile("mov.u32 %0,%%clusterid.x;":"=r"(v));return v;}
__device__ unsigned sreg_rank(){unsigned v;asm volatile("mov.u32 %0,%%cluster_ctarank;":"=r"(v));return v;}
__device__ unsigned long long gt(){unsigned long long v;asm volatile("mov.u64 %0,%%globaltimer;":"=l"(v));return v;}
// rec: CTA start/end times, SM, cluster; spins `ns` nanoseconds.
__global__ void rec(unsigned long long* o, unsigned long long ns){
  if(threadIdx.x==0){
    unsigned long long t0=gt();
    while(gt()-t0<ns){}
    unsigned long long t1=gt();
    unsigned long long* r=o+6ull*blockIdx.x;
    r[0]=sreg_smid();r[1]=sreg_nsmid();r[2]=sreg_cid();r[3]=sreg_rank();r[4]=t0;r[5]=t1;
  }
}
__global__ void kn(unsigned long long* o, unsigned long long ns){ if(o && threadIdx.x==1234567) o[0]=ns; }
__global__ void kp(unsigned long long* o, unsigned long long ns){ if(o && threadIdx.x==1234567) o[0]=ns; }
__global__ void __cluster_dims__(2,1,1) kcd(unsigned long long* o, unsigned long long ns){ if(o && threadIdx.x==1234567) o[0]=ns; }
typedef void(*F)(unsigned long long*,unsigned long long);
static const char* en(cudaError_t e){return cudaGetErrorName(e);}
static cudaLaunchAttribute at[2];
static cudaLaunchConfig_t cfg(int grid,int block,int smem,int cx,int cy=1,int cz=1,int coop=0){
  cudaLaunchConfig_t c{};c.gridDim=dim3(grid,1,1);c.blockDim=dim3(block,1,1);c.dynamicSmemBytes=smem;int n=0;
  if(cx>=0){at[n].id=cudaLaunchAttributeClusterDimension;at[n].val.clusterDim.x=cx;at[n].val.clusterDim.y=cy;at[n].val.clusterDim.z=cz;n++;}
  if(coop){at[n].id=cudaLaunchAttributeCooperative;at[n].val.cooperative=1;n++;}
  c.attrs=at;c.numAttrs=n;return c;}
int main(){
  int dev=0,nsm=0,cl=0;cudaDeviceGetAttribute(&nsm,cudaDevAttrMultiProcessorCount,dev);cudaDeviceGetAttribute(&cl,cudaDevAttrClusterLaunch,dev);
  PR("D,sms=%d,clusterlaunch=%d\n",nsm,cl);
  const int maxsm=232448;
  cudaFuncSetAttribute(rec,cudaFuncAttributeMaxDynamicSharedMemorySize,maxsm);
  cudaFuncSetAttribute(rec,cudaFuncAttributeNonPortableClusterSizeAllowed,1);
  PR("SA,%s,%s,%s,%s,%s\n",en(cudaFuncSetAttribute(kp,cudaFuncAttributeMaxDynamicSharedMemorySize,maxsm)),en(cudaFuncSetAttribute(kn,cudaFuncAttributeMaxDynamicSharedMemorySize,maxsm)),en(cudaFuncSetAttribute(kn,cudaFuncAttributeNonPortableClusterSizeAllowed,1)),en(cudaFuncSetAttribute(rec,cudaFuncAttributeMaxDynamicSharedMemorySize,maxsm)),en(cudaFuncSetAttribute(kcd,cudaFuncAttributeMaxDynamicSharedMemorySize,maxsm)));
  cudaFuncAttributes fa;cudaFuncGetAttributes(&fa,rec);PR("FA,rec,regs=%d,static=%zu\n",fa.numRegs,fa.sharedSizeBytes);
  cudaFuncGetAttributes(&fa,kp);PR("FA,kp,regs=%d,static=%zu\n",fa.numRegs,fa.sharedSizeBytes);
  // A: MaxActiveClusters, rec (non-portable allowed) and kp (not)
  int bss[]={32,64,128,256,384,512,768,1024}; int sms[]={0,8192,49152,65536,102400,116736,153600,204800,232448};
  for(int b:bss)for(int s:sms)for(int cs=1;cs<=16;cs++){int n=-1;cudaLaunchConfig_t c=cfg(cs*64,b,s,cs);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);
    int nb=-1;if(cs==1)cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb,rec,b,s);
    PR("A,%d,%d,%d,%s,%d,%d\n",b,s,cs,en(e),n,nb);cudaGetLastError();}
  // A2: kp (portable) beyond 8, odd shapes, small grid, no cluster attribute
  for(int cs:{8,9,12,16,17,32}){int n=-1;cudaLaunchConfig_t c=cfg(cs*4,128,0,cs);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)kp,&c);PR("A2,kp,%d,%s,%d\n",cs,en(e),n);cudaGetLastError();}
  for(int cs:{17,32}){int n=-1;cudaLaunchConfig_t c=cfg(cs*4,128,0,cs);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);PR("A2,rec,%d,%s,%d\n",cs,en(e),n);cudaGetLastError();}
  {int dims[][3]={{2,2,1},{4,2,1},{2,2,2},{4,4,1},{1,1,4},{3,1,1},{3,3,1}};for(auto&d:dims){int n=-1;cudaLaunchConfig_t c=cfg(d[0]*d[1]*d[2]*8,128,0,d[0],d[1],d[2]);
    c.gridDim=dim3(d[0]*4,d[1]*2,d[2]);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);PR("A3,%d,%d,%d,%s,%d\n",d[0],d[1],d[2],en(e),n);cudaGetLastError();}}
  for(int g:{1,2,4,6,8,132}){int n=-1;cudaLaunchConfig_t c=cfg(g,128,0,2);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);PR("A4,grid=%d,cs2,%s,%d\n",g,en(e),n);cudaGetLastError();}
  {int n=-1;cudaLaunchConfig_t c=cfg(64,128,0,-1);cudaError_t e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);PR("A5,noattr,rec,%s,%d\n",en(e),n);cudaGetLastError();
   n=-1;e=cudaOccupancyMaxActiveClusters(&n,(void*)kcd,&c);PR("A5,noattr,kcd,%s,%d\n",en(e),n);cudaGetLastError();
   c=cfg(64,128,0,0);n=-1;e=cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);PR("A5,zero,rec,%s,%d\n",en(e),n);cudaGetLastError();}
  // P: MaxPotentialClusterSize
  for(int b:bss)for(int s:sms){int p1=-1,p2=-1;cudaLaunchConfig_t c=cfg(1024,b,s,-1);cudaError_t e1=cudaOccupancyMaxPotentialClusterSize(&p1,(void*)rec,&c);cudaGetLastError();
    cudaError_t e2=cudaOccupancyMaxPotentialClusterSize(&p2,(void*)kp,&c);cudaGetLastError();PR("P,%d,%d,%s,%d,%s,%d\n",b,s,en(e1),p1,en(e2),p2);}
  {int p=-1;cudaLaunchConfig_t c=cfg(1024,128,0,-1);cudaError_t e=cudaOccupancyMaxPotentialClusterSize(&p,(void*)kcd,&c);PR("P2,kcd,%s,%d\n",en(e),p);cudaGetLastError();}
  // R: residency. 1 CTA/SM (200 KB) cs 1,2,4,8,16; 2 CTAs/SM (100 KB) cs 4,16; 128 thr 0 smem cs 16 (many/SM)
  unsigned long long* d;cudaMalloc(&d,6ull*8*8192);
  struct Run{int cs,smem,block,waves;unsigned long long ns;} runs[]={{1,204800,128,3,200000},{2,204800,128,3,200000},{4,204800,128,3,200000},{8,204800,128,3,200000},{16,204800,128,3,200000},{4,102400,128,3,200000},{16,102400,128,3,200000},{16,0,1024,3,200000},{2,204800,128,12,5000},{16,204800,128,6,5000},{1,0,128,3,200000},{2,0,128,3,200000},{3,204800,128,3,200000},{12,204800,128,3,200000}};
  for(auto&r:runs){int n=-1;cudaLaunchConfig_t c=cfg(r.cs,r.block,r.smem,r.cs);cudaOccupancyMaxActiveClusters(&n,(void*)rec,&c);cudaGetLastError();
    int grid=(n>0?n:8)*r.waves*r.cs; if(grid>8192)grid=8192/r.cs*r.cs; c=cfg(grid,r.block,r.smem,r.cs);cudaMemset(d,0,6ull*8*grid);
    cudaError_t e=cudaLaunchKernelEx(&c,rec,d,r.ns);cudaError_t e2=cudaDeviceSynchronize();
    PR("RH,cs=%d,smem=%d,block=%d,maxactive=%d,grid=%d,%s,%s\n",r.cs,r.smem,r.block,n,grid,en(e),en(e2));
    std::vector<unsigned long long> h(6ull*grid);cudaMemcpy(h.data(),d,8*h.size(),cudaMemcpyDeviceToHost);
    unsigned long long tm=~0ull;for(int i=0;i<grid;i++)if(h[6*i+4]<tm)tm=h[6*i+4];
    for(int i=0;i<grid;i++)PR("R,%d,%d,%llu,%llu,%llu,%llu,%llu,%llu\n",r.cs,i,h[6*i],h[6*i+1],h[6*i+2],h[6*i+3],h[6*i+4]-tm,h[6*i+5]-tm);}
  // E: launch errors
  auto L=[&](const char* name,F f,cudaLaunchConfig_t c){cudaError_t e=cudaLaunchKernelEx(&c,f,(unsigned long long*)nullptr,0ull);cudaError_t g=cudaGetLastError();cudaError_t s=cudaDeviceSynchronize();cudaError_t g2=cudaGetLastError();
    PR("E,%s,%s,%s,%s,%s\n",name,en(e),en(g),en(s),en(g2));};
  L("ok_cs2",kn,cfg(4,32,0,2));
  L("grid3_cs2",kn,cfg(3,32,0,2));
  {cudaLaunchConfig_t c=cfg(4,32,0,2,2,1);c.gridDim=dim3(4,3,1);L("grid4x3_cs2x2",kn,c);}
  L("kp_cs8",kp,cfg(16,32,0,8));
  L("kp_cs9",kp,cfg(18,32,0,9));
  L("kp_cs16",kp,cfg(32,32,0,16));
  L("kn_cs16",kn,cfg(32,32,0,16));
  L("kn_cs12",kn,cfg(24,32,0,12));
  L("kn_cs17",kn,cfg(34,32,0,17));
  L("kn_cs32",kn,cfg(64,32,0,32));
  {cudaLaunchConfig_t c=cfg(16,32,0,4,4,1);c.gridDim=dim3(4,4,1);L("kn_cs4x4",kn,c);}
  {cudaLaunchConfig_t c=cfg(16,32,0,4,4,2);c.gridDim=dim3(4,4,2);L("kn_cs4x4x2",kn,c);}
  {cudaLaunchConfig_t c=cfg(16,32,0,4,2,1);c.gridDim=dim3(4,4,1);L("kp_cs4x2",kp,c);}
  {cudaLaunchConfig_t c=cfg(16,32,0,4,4,1);c.gridDim=dim3(4,4,1);L("kp_cs4x4",kp,c);}
  L("kn_cs16_smem232448",kn,cfg(32,1024,232448,16));
  L("kn_cs16_smem232449",kn,cfg(32,32,232449,16));
  L("kp_cs8_smem232448",kp,cfg(16,1024,232448,8));
  L("kn_cs2_smem49152_noattr_kcd",kcd,cfg(4,32,49152,2));
  L("kn_cs2_coop",kn,cfg(4,32,0,2,1,1,1));
  L("kn_cs1_coop",kn,cfg(4,32,0,1,1,1,1));
  L("kn_coop_noattr",kn,cfg(4,32,0,-1,1,1,1));
  L("kn_cs0",kn,cfg(4,32,0,0,0,0));
  L("kn_cs0x1x1",kn,cfg(4,32,0,0,1,1));
  L("kcd_noattr_grid4",kcd,cfg(4,32,0,-1));
  L("kcd_noattr_grid3",kcd,cfg(3,32,0,-1));
  L("kcd_cs2",kcd,cfg(4,32,0,2));
  L("kcd_cs4",kcd,cfg(4,32,0,4));
  L("kcd_cs1",kcd,cfg(4,32,0,1));
  {cudaLaunchConfig_t c=cfg(2,32,0,2);L("cs2_grid2_bigrid_blocks1025",kn,cfg(2,1025,0,2));}
  // too many CTAs of a cluster for one GPC: cs 16 each CTA needs a whole SM (done above, 232448); also <<<>>> of kcd
  kcd<<<3,32>>>(nullptr,0);{cudaError_t g=cudaGetLastError();PR("E,kcd_chevron_grid3,%s\n",en(g));cudaDeviceSynchronize();}
  kcd<<<4,32>>>(nullptr,0);{cudaError_t g=cudaGetLastError();PR("E,kcd_chevron_grid4,%s,%s\n",en(g),en(cudaDeviceSynchronize()));}
  {void* a[2];unsigned long long* p=nullptr;unsigned long long z=0;a[0]=&p;a[1]=&z;cudaError_t e=cudaLaunchCooperativeKernel((void*)kcd,dim3(4),dim3(32),a,0,0);PR("E,kcd_coop_api,%s,%s\n",en(e),en(cudaGetLastError()));cudaDeviceSynchronize();}
  PR("END\n");
}
